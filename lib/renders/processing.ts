import { config } from "../config";
import { db, withTx, type Tx } from "../db/client";
import type { RenderErrorRecord, RenderRow } from "../db/schema";
import { fileStore } from "../files/store";
import { log } from "../log";
import type { BrowserPool } from "../render-engine/browser";
import { RenderAborted, RenderFailure, TransientRenderError } from "../render-engine/errors";
import { renderDocument } from "../render-engine/render";
import { onRenderStopped } from "./events";
import { deleteFilesLater, renderFileKey } from "./files";
import { contentTypes } from ".";
import * as repo from "./repository";
import type { ClaimedRender } from "./row";
import * as statements from "./statements";

export { RENDER_QUEUED_CHANNEL } from "./notices";
import { CallerDocument, resolveSettings } from "./schemas";

/** A crashed or killed worker's render is tried again; at most this many attempts in all (spec: 2 retries). */
export const MAX_ATTEMPTS = 3;
/** How long a processing render stays claimed without its worker renewing the claim. */
export const LEASE_MS = 15_000;

const inflight = new Map<string, AbortController>();

/**
 * Takes the oldest queued render and renders it: claim, render, store, end. Each state change is
 * one statement, and the final one is conditional, so a render ends exactly once even against a
 * concurrent cancel. A cancelled render's work is stopped and its file removed. While
 * `keepClaiming()`, the statement that ends a render also claims the next one, which is rendered
 * in turn. Returns false once the queue was found empty (the caller sleeps until a render is queued).
 */
export async function processNextRender(pool: BrowserPool, keepClaiming: () => boolean = () => true): Promise<boolean> {
  let row = await statements.claimNextRender(db(), LEASE_MS);
  if (!row) return false;
  for (;;) {
    const after = await processRender(row, pool, keepClaiming);
    if (after === "queue empty") return false;
    if (after === "queue not read") return true; // the caller claims again, unless it stops
    row = after;
  }
}

/** What follows a render: the render its ending statement claimed, or what that statement saw of the queue. */
type After = ClaimedRender | "queue empty" | "queue not read";

async function processRender(row: ClaimedRender, pool: BrowserPool, keepClaiming: () => boolean): Promise<After> {
  const controller = new AbortController();
  inflight.set(row.id, controller);
  const timer = setTimeout(() => controller.abort("timeout"), config().RENDER_TIMEOUT_MS);
  const started = performance.now();
  /** Ends this attempt, claiming the next render unless the worker is stopping. */
  const end = async (final: Parameters<typeof statements.endAttempt>[3]) => {
    const lease = keepClaiming() ? LEASE_MS : undefined;
    const { ended, next } = await statements.endAttempt(db(), row.id, row.attempts, final, lease);
    return { ended, after: lease === undefined ? ("queue not read" as const) : (next ?? ("queue empty" as const)) };
  };
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
    const fileKey = renderFileKey(row, row.attempts);
    await fileStore().put(fileKey, out.bytes, contentTypes[row.format]);
    const { ended, after } = await end({
      state: "succeeded",
      pageCount: out.pageCount,
      outputBytes: out.bytes.byteLength,
      durationMs: Math.round(performance.now() - started),
      fileKey,
    });
    if (!ended) await fileStore().delete([fileKey]); // cancelled while it was being stored
    return after;
  } catch (e) {
    return await recordFailure(row, e, async (error) => (await end({ state: "failed", error })).after);
  } finally {
    clearTimeout(timer);
    inflight.delete(row.id);
  }
}

async function recordFailure(row: Pick<RenderRow, "id" | "attempts">, e: unknown, fail: (error: RenderErrorRecord) => Promise<After>): Promise<After> {
  if (e instanceof RenderAborted && e.reason === "cancelled") return "queue not read"; // the cancel already ended it
  if (e instanceof RenderAborted) {
    const s = config().RENDER_TIMEOUT_MS / 1000;
    return fail({ code: "LIMIT_EXCEEDED", diagnostic: "LIMIT_EXCEEDED", message: `The render took longer than its time limit of ${s} s` });
  }
  if (e instanceof RenderFailure) return fail({ code: e.code, diagnostic: e.diagnostic, message: e.message });
  if (e instanceof TransientRenderError && row.attempts < MAX_ATTEMPTS) {
    log().warn({ renderId: row.id, attempt: row.attempts, err: e }, "render attempt failed; retrying");
    await statements.requeueRender(db(), row.id);
    return "queue not read";
  }
  log().error({ renderId: row.id, err: e }, "render failed");
  return fail({ code: "RENDER_FAILED", diagnostic: "render_process_exited", message: "The render stopped unexpectedly" });
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
 * attempt while attempts are left, else failed with render_process_exited. The file the dead
 * attempt may have stored is deleted: no render points at it.
 */
export async function reapAbandonedRenders(): Promise<number> {
  return withTx(async (tx: Tx) => {
    const rows = await repo.lockExpiredLeases(tx, 50);
    for (const r of rows) {
      if (r.attempts < MAX_ATTEMPTS) {
        await statements.requeueRender(tx, r.id);
      } else {
        await statements.endRender(tx, { id: r.id }, ["processing"], {
          state: "failed",
          error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: `The render stopped ${r.attempts} times (its worker exited)` },
        });
      }
    }
    await deleteFilesLater(tx, rows.map((r) => renderFileKey(r, r.attempts)));
    if (rows.length) log().warn({ renderIds: rows.map((r) => r.id) }, "took back renders of a stopped worker");
    return rows.length;
  });
}
