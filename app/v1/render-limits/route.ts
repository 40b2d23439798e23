import { apiRoute } from "@/lib/http";
import { readRenderLimits } from "@/lib/workspaces";
import { RenderLimits } from "@/lib/workspaces/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "render:read", summary: "Get the render limits", description: "The workspace's limits and how much of each is in use.", responses: { 200: RenderLimits } }, ({ ctx }) => readRenderLimits(ctx));
