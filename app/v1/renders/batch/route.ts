import { apiRoute, MiB, Reply } from "@/lib/http";
import * as batches from "@/lib/batches";
import { requestHash } from "@/lib/idempotency";

// spec: Limits > Request bodies: POST /v1/renders/batch takes up to 32 MiB; it answers 202 and never waits.
export const POST = apiRoute(
  {
    scope: "render:create",
    body: batches.CreateBatchInput,
    bodyLimit: 32 * MiB,
    idempotency: true,
    summary: "Create a batch of renders",
    description: "Up to 1,000 items, each a render request without waitMs; answers 202 at once with the batch summary. Bodies up to 32 MiB.",
    responses: { 202: batches.BatchSummary },
  },
  async ({ ctx, body, idempotencyKey }) => {
    // why an endpoint of its own: batch keys are separate from single-render keys (spec rule 4).
    const idem = idempotencyKey
      ? { endpoint: "POST /v1/renders/batch", key: idempotencyKey, requestHash: requestHash("POST", "/v1/renders/batch", body) }
      : undefined;
    const { summary } = await batches.createBatch(ctx, body.items, idem);
    return new Reply(202, summary);
  },
);
