import { z } from "zod";
import type { RenderState } from "../db/schema";

/**
 * POST /v1/renders/batch. Items are checked one by one by the verb (BatchItemInput) so that an
 * error names its item ("Batch item N: ...").
 */
export const CreateBatchInput = z.strictObject({
  items: z.array(z.unknown()).min(1, "must hold at least 1 item").max(100, "must hold at most 100 items"),
});
export type CreateBatchInput = z.infer<typeof CreateBatchInput>;

export type BatchItem = {
  index: number;
  id: string;
  state: RenderState;
  templateVersionId?: string;
  test: boolean;
  createdAt: string;
  updatedAt: string;
};

/** spec: Batch summary. */
export type BatchSummary = {
  id: string;
  createdAt: string;
  total: number;
  counts: Record<RenderState, number>;
  items: BatchItem[];
};
