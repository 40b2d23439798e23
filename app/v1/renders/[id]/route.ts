import { apiRoute } from "@/lib/http";
import * as renders from "@/lib/renders";

export const GET = apiRoute({ scope: "render:read", query: renders.WaitQuery }, ({ ctx, params, query }) => renders.getRender(ctx, params.id!, query.waitMs));
