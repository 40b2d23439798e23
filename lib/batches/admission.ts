import type { Ctx } from "../auth/context";
import type { Tx } from "../db/client";
import { limitExceeded } from "../errors";
import * as repo from "./repository";

/** spec: Limits > Test renders: at most 10 at once and 10 a minute, or the workspace's own if lower. */
const TEST_ALLOWANCE = 10;

export type BatchCounts = { normal: number; test: number };

/**
 * Admits a batch's items as a whole, inside the transaction that creates them (spec: Limits >
 * Render allowances > What counts: one per item; whole batch admitted or none). Here: a batch with
 * more items than an allowance itself answers 400 LIMIT_EXCEEDED (it could never fit).
 *
 * TODO(issue 12, helper H): the admission of the allowances and quotas (maxActiveRenders,
 * rendersPerMinute, the test allowance, documentsPerMonth, testRendersPerDay: 429 or 402) is
 * helper H's `admitRenders`; it replaces the body of this function when both branches meet.
 */
export async function admitBatch(tx: Tx, ctx: Ctx, counts: BatchCounts): Promise<void> {
  const a = await repo.allowances(tx, ctx.workspaceId);
  const normalMax = Math.min(a.maxActiveRenders, a.rendersPerMinute);
  if (counts.normal > normalMax) {
    const which = a.maxActiveRenders <= a.rendersPerMinute ? `maxActiveRenders (${a.maxActiveRenders})` : `rendersPerMinute (${a.rendersPerMinute})`;
    throw limitExceeded(`The batch has ${counts.normal} items that are not test renders, more than the workspace's ${which}; split it into smaller batches`);
  }
  const testMax = Math.min(TEST_ALLOWANCE, a.maxActiveRenders, a.rendersPerMinute);
  if (counts.test > testMax) {
    throw limitExceeded(`The batch has ${counts.test} test items, more than the test render allowance of ${testMax} at once; split it into smaller batches`);
  }
}
