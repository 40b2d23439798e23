import type { Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { admitRenders } from "../renders/admission";

export type BatchCounts = { normal: number; test: number };

/**
 * Admits a batch's items as a whole, inside the transaction that creates them and before they are
 * inserted (spec: Limits > Render allowances > What counts: one per item; whole batch admitted or
 * none): the shared admission (lib/renders/admission.ts) answers 400 LIMIT_EXCEEDED for more items
 * than an allowance itself, 429 when they do not fit now, 402 past a quota, 403 when suspended.
 */
export function admitBatch(tx: Tx, ctx: Ctx, counts: BatchCounts): Promise<void> {
  return admitRenders(tx, ctx, counts);
}
