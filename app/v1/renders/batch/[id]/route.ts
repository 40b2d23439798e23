import { apiRoute } from "@/lib/http";
import * as batches from "@/lib/batches";

// why a session too: the console's batch page reads the summary as it updates.
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "render:read", summary: "Get a batch", responses: { 200: batches.BatchSummary } }, ({ ctx, params }) => batches.getBatch(ctx, params.id!));
