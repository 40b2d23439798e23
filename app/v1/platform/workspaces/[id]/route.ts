import { apiRoute } from "@/lib/http";
import { PlatformWorkspaceInput, updatePlatformWorkspace } from "@/lib/workspaces";

export const PATCH = apiRoute({ auth: "session", body: PlatformWorkspaceInput }, ({ ctx, body, params }) => updatePlatformWorkspace(ctx, params.id!, body));
