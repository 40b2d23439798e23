import { apiRoute } from "@/lib/http";
import * as batches from "@/lib/batches";
import * as renders from "@/lib/renders";

// why a session too: the console's batch page reads the summary as it updates.
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "render:read", query: renders.WaitQuery }, ({ ctx, params, query }) => batches.getBatch(ctx, params.id!, query.waitMs));
