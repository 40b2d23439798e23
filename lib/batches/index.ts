/**
 * Batches (spec: POST /v1/renders/batch, Batch summary, States > Batch): up to 100 renders created
 * atomically, summarised by their states, and joined into one PDF on request (combine.ts).
 */
import { requireScope, type Ctx } from "../auth/context";
import { db, withTx, type Executor } from "../db/client";
import { newId } from "../db/ids";
import { renderStates, type BatchRow, type RenderRow } from "../db/schema";
import { AppError, fromZodError, isAppError, limitExceeded, notFound } from "../errors";
import { idempotent, priorResource, type IdempotencyScope } from "../idempotency";
import { BatchItemInput, hasEnded, inputBytes, prepareRender, renderRequest, type PreparedRender } from "../renders";
import { waitForRenderEnd } from "../renders/events";
import * as renderRepo from "../renders/repository";
import { insertRenders } from "../renders/statements";
const MiB = 1024 * 1024;
import { admitBatch } from "./admission";
import * as repo from "./repository";
import type { BatchSummary } from "./schemas";

export { BatchSummary, CreateBatchInput, type BatchItem } from "./schemas";
export { combinedPdf } from "./combined";
import { combineRefusal } from "./combined";

/** spec: Limits > Batches: the input of all items together. */
export const MAX_BATCH_INPUT_BYTES = 64 * MiB;
/** How many items are prepared at once (each may read a template version, assets, a destination). */
const PREPARE_CONCURRENCY = 8;

/**
 * An error about one item, as decisions.md asks: the message starts "Batch item N:" and every
 * detail's path is the item's own path under items.N.
 */
function itemError(index: number, err: unknown): unknown {
  if (!isAppError(err)) return err;
  return new AppError(err.code, `Batch item ${index}: ${err.message}`, {
    status: err.status,
    retryable: err.retryable,
    headers: err.headers,
    details: err.details?.map((d) => ({ ...d, path: d.path ? `items.${index}.${d.path}` : `items.${index}` })),
  });
}

/** Parses every item (all of them, so the first invalid one is named) and prepares them, first error by index. */
async function prepareItems(ex: Executor, ctx: Ctx, batchId: string, items: unknown[]): Promise<PreparedRender[]> {
  const inputs = items.map((item, i) => {
    const r = BatchItemInput.safeParse(item);
    if (!r.success) throw itemError(i, fromZodError(r.error));
    return r.data;
  });
  const prepared: PreparedRender[] = [];
  for (let start = 0; start < inputs.length; start += PREPARE_CONCURRENCY) {
    const chunk = inputs.slice(start, start + PREPARE_CONCURRENCY);
    const settled = await Promise.allSettled(
      chunk.map((input) => prepareRender(ex, ctx, renderRequest(ctx, input), newId("rnd"), "destination")),
    );
    settled.forEach((s, j) => {
      if (s.status === "rejected") throw itemError(start + j, s.reason);
      prepared.push({ ...s.value, row: { ...s.value.row, batchId, batchIndex: start + j } });
    });
  }
  return prepared;
}

/**
 * Creates a batch: every item is validated and prepared first, then one statement queues them all
 * with the batch row, in one transaction, so an invalid item creates nothing. The items are
 * admitted as a whole (admission.ts). With an Idempotency-Key, a repeat answers the first batch's
 * current summary.
 */
export async function createBatch(
  ctx: Ctx,
  items: unknown[],
  idempotency: Omit<IdempotencyScope, "workspaceId"> | undefined,
): Promise<{ summary: BatchSummary; replayed: boolean }> {
  requireScope(ctx, "render:create");
  const scope = idempotency && { ...idempotency, workspaceId: ctx.workspaceId };
  // A repeat is answered before any item is prepared again.
  const prior = scope && (await priorResource(db(), scope));
  if (prior) return { summary: await summaryOf(ctx, prior), replayed: true };
  const id = newId("bat");
  // why outside the transaction: preparing reads templates, assets and destinations on other
  // connections of the pool; a transaction held open meanwhile could starve the pool under load.
  const prepared = await prepareItems(db(), ctx, id, items);
  const bytes = prepared.reduce((n, p) => n + inputBytes(p.payload), 0);
  if (bytes > MAX_BATCH_INPUT_BYTES) {
    throw limitExceeded(`The items' input (documents, headers, footers and the files they load) is ${bytes} bytes together; a batch takes at most 64 MiB`);
  }
  const test = prepared.filter((p) => p.row.test).length;
  let summary: BatchSummary | undefined;
  const { resourceId, replayed } = await withTx(async (tx) => {
    const create = async () => {
      await admitBatch(tx, ctx, { normal: prepared.length - test, test });
      const batch = await repo.insertBatch(tx, { id, workspaceId: ctx.workspaceId, itemCount: prepared.length, requestId: ctx.requestId });
      const created = await insertRenders(tx, prepared);
      summary = toSummary(
        batch,
        prepared.map((p) => ({ ...p.row, state: "queued", createdAt: created.get(p.row.id)!, updatedAt: created.get(p.row.id)! })),
      );
    };
    if (!scope) {
      await create();
      return { resourceId: id, replayed: false };
    }
    // A concurrent first request with the same key may have won the race since priorResource.
    return idempotent(tx, scope, id, create);
  });
  if (summary && !replayed) return { summary, replayed };
  return { summary: await summaryOf(ctx, resourceId), replayed: true };
}

type ItemRow = Pick<RenderRow, "id" | "state" | "test" | "createdAt" | "updatedAt"> & { templateVersionId?: string | null; batchIndex?: number | null };

/** spec: Batch summary: counts of the items' states and the items in request order. */
export function toSummary(batch: BatchRow, items: ItemRow[]): BatchSummary {
  const counts = Object.fromEntries(renderStates.map((s) => [s, 0])) as BatchSummary["counts"];
  for (const r of items) counts[r.state]++;
  return {
    id: batch.id,
    createdAt: batch.createdAt.toISOString(),
    total: items.length,
    counts,
    items: items.map((r) => ({
      index: r.batchIndex ?? 0,
      id: r.id,
      state: r.state,
      ...(r.templateVersionId ? { templateVersionId: r.templateVersionId } : {}),
      test: r.test,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}

async function summaryOf(ctx: Ctx, id: string): Promise<BatchSummary> {
  const batch = await repo.findBatch(db(), ctx.workspaceId, id);
  if (!batch) throw notFound("batch", id);
  return toSummary(batch, await repo.listItems(db(), ctx.workspaceId, id));
}

/**
 * GET /v1/renders/batch/{id} (render:read): the current summary; 404 for other workspaces' batches.
 * With `waitMs`, the answer waits until every item has ended or the time is up: it waits for one
 * running item's end at a time (woken by its notification, no polling) and reads the batch again.
 */
export async function getBatch(ctx: Ctx, id: string, waitMs = 0): Promise<BatchSummary> {
  requireScope(ctx, "render:read");
  const deadline = performance.now() + waitMs;
  let summary = await summaryOf(ctx, id);
  for (;;) {
    const running = summary.items.find((i) => i.state === "queued" || i.state === "processing");
    const left = deadline - performance.now();
    if (!running || left <= 0) return summary;
    await waitForRenderEnd(running.id, left, async () => {
      const r = await renderRepo.findRender(db(), ctx.workspaceId, running.id);
      return !r || hasEnded(r);
    });
    summary = await summaryOf(ctx, id);
  }
}

/**
 * The console's view of a batch (render:read): the summary, each item's output format, and why the
 * combined PDF cannot be downloaded now (undefined when it can).
 */
export async function getBatchView(ctx: Ctx, id: string): Promise<{ summary: BatchSummary; formats: Record<string, string>; combinedRefusal?: string }> {
  requireScope(ctx, "render:read");
  const batch = await repo.findBatch(db(), ctx.workspaceId, id);
  if (!batch) throw notFound("batch", id);
  const items = await repo.listItems(db(), ctx.workspaceId, id);
  const refusal = items.length ? combineRefusal(id, items) : notFound("render of batch", id);
  return {
    summary: toSummary(batch, items),
    formats: Object.fromEntries(items.map((r) => [r.id, r.format])),
    ...(refusal ? { combinedRefusal: refusal.message } : {}),
  };
}
