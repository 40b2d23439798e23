import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";
import { FileUsageList } from "@/lib/workspace-files/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "List who uses a file", description: "Template drafts naming it as a stylesheet, and stylesheets naming it in url() or @import.", responses: { 200: FileUsageList } }, ({ ctx, params }) => files.listFileUsages(ctx, params.id!));
