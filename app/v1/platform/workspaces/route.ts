import { apiRoute } from "@/lib/http";
import { listPlatformWorkspaces, PlatformWorkspacesQuery } from "@/lib/workspaces";

export const GET = apiRoute({ auth: "session", query: PlatformWorkspacesQuery }, ({ ctx, query }) => listPlatformWorkspaces(ctx, query));
