import { apiRoute } from "@/lib/http";
import * as renders from "@/lib/renders";

export const POST = apiRoute({ scope: "render:cancel", summary: "Cancel a render", description: "Cancels a queued or processing render; answers the render.", responses: { 200: renders.Render } }, ({ ctx, params }) => renders.cancelRender(ctx, params.id!));
