import { apiRoute } from "@/lib/http";
import * as renders from "@/lib/renders";

export const GET = apiRoute({ scope: "render:read" }, ({ ctx, params }) => renders.getRender(ctx, params.id!));
