import { apiRoute } from "@/lib/http";
import { fileResponse } from "@/lib/http/file-response";
import * as renders from "@/lib/renders";

export const GET = apiRoute({ scope: "render:read" }, async ({ ctx, params }) => fileResponse(await renders.getRenderFile(ctx, params.id!)));
