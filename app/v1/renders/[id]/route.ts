import { apiRoute } from "@/lib/http";
import * as renders from "@/lib/renders";

export const GET = apiRoute(
  {
    scope: "render:read",
    query: renders.WaitQuery,
    summary: "Get a render",
    description:
      "A succeeded render with a kept file carries a fresh five-minute download link. With `waitMs` (0 to 60,000) the answer waits until the render has ended or the time is up, woken by its end: clients wait without polling.",
    responses: { 200: renders.Render },
  },
  ({ ctx, params, query }) => renders.getRender(ctx, params.id!, query.waitMs),
);
