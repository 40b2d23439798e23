import { z } from "zod";
import { renderStates, type RenderState } from "../db/schema";

/**
 * POST /v1/renders/batch. Items are checked one by one by the verb (BatchItemInput) so that an
 * error names its item ("Batch item N: ...").
 */
export const CreateBatchInput = z.strictObject({
  items: z.array(z.unknown().meta({ description: "A render request as POST /v1/renders takes it, without waitMs" })).min(1, "must hold at least 1 item").max(100, "must hold at most 100 items"),
});
export type CreateBatchInput = z.infer<typeof CreateBatchInput>;

export const BatchItem = z.object({
  index: z.number().int(),
  id: z.string(),
  state: z.enum(renderStates),
  templateVersionId: z.string().optional(),
  test: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type BatchItem = z.infer<typeof BatchItem>;

/** spec: Batch summary. */
export const BatchSummary = z
  .object({
    id: z.string(),
    createdAt: z.iso.datetime(),
    total: z.number().int(),
    counts: z.object(Object.fromEntries(renderStates.map((s) => [s, z.number().int()])) as Record<RenderState, z.ZodNumber>),
    items: z.array(BatchItem),
  })
  .meta({ id: "BatchSummary", description: "A batch: how many of its renders are in each state, and each item's render." });
export type BatchSummary = z.infer<typeof BatchSummary>;
