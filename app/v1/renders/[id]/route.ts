import { apiRoute } from "@/lib/http";
import * as renders from "@/lib/renders";

export const GET = apiRoute({ scope: "render:read", summary: "Get a render", description: "A succeeded render with a kept file carries a fresh five-minute download link.", responses: { 200: renders.Render } }, ({ ctx, params }) => renders.getRender(ctx, params.id!));
