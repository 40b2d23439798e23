import { apiRoute } from "@/lib/http";
import { PlatformWorkspaceInput, updatePlatformWorkspace } from "@/lib/workspaces";
import { PlatformWorkspace } from "@/lib/workspaces/schemas";

// why effect "platform": an administrator whose own workspace is suspended still runs the platform (and can lift it).
export const PATCH = apiRoute({ auth: "session", body: PlatformWorkspaceInput, effect: "platform", summary: "Change a workspace's limits, plan or suspension", description: "For the platform's administrators only.", responses: { 200: PlatformWorkspace } }, ({ ctx, body, params }) =>
  updatePlatformWorkspace(ctx, params.id!, body),
);
