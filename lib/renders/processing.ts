import { config } from "../config";
import { db, withTx, type Tx } from "../db/client";
import type { RenderErrorRecord, RenderRow } from "../db/schema";
import { fileStore } from "../files/store";
import { log } from "../log";
import type { BrowserPool } from "../render-engine/browser";
import { RenderAborted, RenderFailure, TransientRenderError } from "../render-engine/errors";
import { renderDocument } from "../render-engine/render";
import { onRenderStopped } from "./events";
import { contentTypes, extensions } from ".";
import * as repo from "./repository";

export { RENDER_QUEUED_CHANNEL } from "./repository";
import { CallerDocument, resolveSettings } from "./schemas";

/** A crashed or killed worker's render is tried again; at most this many attempts in all (spec: 2 retries). */
export const MAX_ATTEMPTS = 3;
/** How long a processing render stays claimed without its worker renewing the claim. */
export const LEASE_MS = 15_000;

const inflight = new Map<string, AbortController>();

/**
 * Takes the oldest queued render and renders it: claim, render, store, end. Each state change is
 * one statement, and the final one is conditional, so a render ends exactly once even against a
 * concurrent cancel. A cancelled render's work is stopped and its file removed. The statement that
 * ends a render also claims the next one while `keepClaiming()` says so; returns false once the
 * queue was found empty (the caller sleeps until a render is queued).
 */
export async function processNextRender(pool: BrowserPool, keepClaiming: () => boolean = () => true): Promise<boolean> {
  let row = await repo.claimNextRender(db(), LEASE_MS);
  if (!row) return false; // the queue is empty
  for (;;) {
    const claimNext = keepClaiming();
    const next = await processRender(row, pool, claimNext);
    if (next === "unknown") return true; // ended without looking at the queue
    if (!next) return !claimNext; // the queue was empty when this render ended (or the loop stops)
    row = next;
  }
}

/** Renders one claimed render; returns the render claimed next, undefined if none was queued, or "unknown" when the queue was not looked at. */
async function processRender(row: repo.ClaimedRender, pool: BrowserPool, claimNext: boolean): Promise<repo.ClaimedRender | undefined | "unknown"> {
  const controller = new AbortController();
  inflight.set(row.id, controller);
  const timer = setTimeout(() => controller.abort("timeout"), config().RENDER_TIMEOUT_MS);
  const started = performance.now();
  const lease = claimNext ? LEASE_MS : undefined;
  try {
    const document = CallerDocument.parse(row.payload?.document);
    const out = await renderDocument(
      pool,
      {
        renderId: row.id,
        attempt: row.attempts,
        html: document.html,
        header: document.header,
        footer: document.footer,
        settings: resolveSettings(document.settings),
        format: row.format,
        image: row.options.image,
        pageRanges: row.options.pageRanges,
        test: row.test,
      },
      controller.signal,
    );
    // why: the attempt in the key keeps a stale attempt from overwriting or deleting the winner's file.
    const fileKey = `renders/${row.workspaceId}/${row.id}-${row.attempts}.${extensions[row.format]}`;
    await fileStore().put(fileKey, out.bytes, contentTypes[row.format]);
    // The render's own end first: what it claimed next starts only after this one is out of inflight.
    const { ended, next } = await repo.endAttempt(
      db(),
      row.id,
      row.attempts,
      { state: "succeeded", pageCount: out.pageCount, outputBytes: out.bytes.byteLength, durationMs: Math.round(performance.now() - started), fileKey },
      lease,
    );
    if (!ended) await fileStore().delete([fileKey]); // cancelled while it was being stored
    return claimNext ? next : "unknown";
  } catch (e) {
    return await recordFailure(row, e, lease);
  } finally {
    clearTimeout(timer);
    inflight.delete(row.id);
  }
}

async function recordFailure(row: Pick<RenderRow, "id" | "attempts">, e: unknown, lease: number | undefined) {
  if (e instanceof RenderAborted && e.reason === "cancelled") return "unknown" as const; // the cancel already ended it
  const fail = async (error: RenderErrorRecord) => {
    const { next } = await repo.endAttempt(db(), row.id, row.attempts, { state: "failed", error }, lease);
    return lease === undefined ? ("unknown" as const) : next;
  };
  if (e instanceof RenderAborted) {
    const s = config().RENDER_TIMEOUT_MS / 1000;
    return fail({ code: "LIMIT_EXCEEDED", diagnostic: "render_timeout", message: `The render took longer than its time limit of ${s} s` });
  } else if (e instanceof RenderFailure) {
    return fail({ code: e.code, diagnostic: e.diagnostic, message: e.message });
  } else if (e instanceof TransientRenderError && row.attempts < MAX_ATTEMPTS) {
    log().warn({ renderId: row.id, attempt: row.attempts, err: e }, "render attempt failed; retrying");
    await repo.requeueRender(db(), row.id);
    return "unknown" as const;
  } else {
    log().error({ renderId: row.id, err: e }, "render failed");
    return fail({ code: "RENDER_FAILED", diagnostic: "render_process_exited", message: "The render stopped unexpectedly" });
  }
}

/** Stops the work of renders that end elsewhere (cancelled) while this worker renders them. */
export async function watchCancellations() {
  await onRenderStopped((id) => inflight.get(id)?.abort("cancelled"));
}

/** Renews the claims of this worker's renders; called every few seconds. */
export async function renewLeases() {
  await repo.renewLeases(db(), [...inflight.keys()], LEASE_MS);
}

/**
 * Takes back renders whose worker stopped renewing its claim (it crashed or was killed): another
 * attempt while attempts are left, else failed with render_process_exited.
 */
export async function reapAbandonedRenders(): Promise<number> {
  return withTx(async (tx: Tx) => {
    const rows = await repo.lockExpiredLeases(tx, 50);
    for (const r of rows) {
      if (r.attempts < MAX_ATTEMPTS) {
        await repo.requeueRender(tx, r.id);
      } else {
        await repo.endRender(tx, { id: r.id }, ["processing"], {
          state: "failed",
          error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: `The render stopped ${r.attempts} times (its worker exited)` },
        });
      }
    }
    if (rows.length) log().warn({ renderIds: rows.map((r) => r.id) }, "took back renders of a stopped worker");
    return rows.length;
  });
}

/** spec: Retention: renders, their files and records older than RETENTION_DAYS are deleted. */
export async function purgeExpiredRenders(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - config().RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const batch = await repo.oldRenders(db(), cutoff, 500);
    if (batch.length === 0) return total;
    await fileStore().delete(batch.flatMap((r) => (r.fileKey ? [r.fileKey] : [])));
    await repo.deleteRenders(db(), batch.map((r) => r.id));
    total += batch.length;
  }
}
