import { apiRoute } from "@/lib/http";
import { PlatformWorkspaceInput, updatePlatformWorkspace } from "@/lib/workspaces";

// why effect "platform": an administrator whose own workspace is suspended still runs the platform (and can lift it).
export const PATCH = apiRoute({ auth: "session", body: PlatformWorkspaceInput, effect: "platform" }, ({ ctx, body, params }) =>
  updatePlatformWorkspace(ctx, params.id!, body),
);
