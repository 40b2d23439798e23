import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => files.listFileUsages(ctx, params.id!));
