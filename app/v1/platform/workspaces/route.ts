import { apiRoute } from "@/lib/http";
import { listPlatformWorkspaces, PlatformWorkspacesQuery } from "@/lib/workspaces";
import { PlatformWorkspacePage } from "@/lib/workspaces/schemas";

export const GET = apiRoute({ auth: "session", query: PlatformWorkspacesQuery, summary: "List workspaces", description: "For the platform's administrators only.", responses: { 200: PlatformWorkspacePage } }, ({ ctx, query }) => listPlatformWorkspaces(ctx, query));
