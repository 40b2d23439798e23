import { apiRoute } from "@/lib/http";
import * as renders from "@/lib/renders";

export const POST = apiRoute({ scope: "render:cancel" }, ({ ctx, params }) => renders.cancelRender(ctx, params.id!));
