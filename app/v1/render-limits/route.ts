import { apiRoute } from "@/lib/http";
import { readRenderLimits } from "@/lib/workspaces";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "render:read" }, ({ ctx }) => readRenderLimits(ctx));
