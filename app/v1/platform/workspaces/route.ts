import { apiRoute } from "@/lib/http";
import { PageQuery } from "@/lib/paging";
import { listPlatformWorkspaces } from "@/lib/workspaces";

export const GET = apiRoute({ auth: "session", query: PageQuery }, ({ ctx, query }) => listPlatformWorkspaces(ctx, query));
