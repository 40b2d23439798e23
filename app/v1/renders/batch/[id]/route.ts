import { apiRoute } from "@/lib/http";
import * as batches from "@/lib/batches";
import * as renders from "@/lib/renders";

// why a session too: the console's batch page reads the summary as it updates.
export const GET = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "render:read",
    query: renders.WaitQuery,
    summary: "Get a batch",
    description: "With `waitMs` (0 to 60,000) the answer waits until every item has ended or the time is up, woken by the items' ends.",
    responses: { 200: batches.BatchSummary },
  },
  ({ ctx, params, query }) => batches.getBatch(ctx, params.id!, query.waitMs),
);
