import { AssetRefs } from "../documents/asset-refs";
import { config } from "../config";
import { db, withTx, type Tx } from "../db/client";
import { DestinationUploadFailed, uploadRenderOutput } from "../destinations/upload";
import type { RenderErrorRecord } from "../db/schema";
import { fileStore } from "../files/store";
import type { BrowserPool } from "../render-engine/browser";
import { RenderAborted, RenderFailure, TransientRenderError } from "../render-engine/errors";
import { renderDocument, type RenderOutput } from "../render-engine/render";
import { log } from "../log";
import { logAttempt, logTakenBack, type Phases } from "./attempt-log";
import { onRenderStopped } from "./events";
import { deleteFilesLater, renderFileKey } from "./files";
import { contentTypes } from ".";
import * as repo from "./repository";
import type { ClaimedRender } from "./row";
import * as statements from "./statements";

export { RENDER_QUEUED_CHANNEL } from "./notices";
import { CallerDocument } from "../documents/caller-document";
import { resolveSettings } from "../documents/page-settings";
import { runAsTenant } from "../processes/tenant";

/** A crashed or killed worker's render is tried again; at most this many attempts in all (spec: 2 retries). */
export const MAX_ATTEMPTS = 3;
/** How long a processing render stays claimed without its worker renewing the claim (RENDER_LEASE_MS, 15 s). */
export const leaseMs = () => config().RENDER_LEASE_MS;

const inflight = new Map<string, AbortController>();
let lastRenderEndedAt = -Infinity;

/**
 * Whether this process renders now (an upload to a destination included), or ended a render
 * within `withinMs` (the gap between two renders of a steady stream is not idleness). Background
 * work (webhook deliveries) yields to it.
 */
export function rendering(withinMs: number): boolean {
  return inflight.size > 0 || performance.now() - lastRenderEndedAt < withinMs;
}

/**
 * Takes the oldest queued render and renders it: claim, render, store, end. Each state change is
 * one statement, and the final one is conditional, so a render ends exactly once even against a
 * concurrent cancel. A cancelled render's work is stopped and its file removed. While
 * `keepClaiming()`, the statement that ends a render also claims the next one, which is rendered
 * in turn. Returns false once the queue was found empty (the caller sleeps until a render is queued).
 */
export async function processNextRender(pool: BrowserPool, keepClaiming: () => boolean = () => true): Promise<boolean> {
  let row = await statements.claimNextRender(db(), leaseMs());
  if (!row) return false;
  for (;;) {
    const claimed: ClaimedRender = row;
    // Contained jobs of the render (sandbox steps, helpers) take its workspace's fair turns.
    const after: After = await runAsTenant(claimed.workspaceId, () => processRender(claimed, pool, keepClaiming));
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
  const close = () => {
    clearTimeout(timer);
    inflight.delete(row.id);
    lastRenderEndedAt = performance.now();
  };
  const started = performance.now();
  const ms: Phases = { queued: row.queuedMs };
  /** Runs one phase of the attempt and records its milliseconds. */
  const timed = async <T>(phase: Exclude<keyof Phases, "queued">, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await work();
    } finally {
      ms[phase] = Math.round(performance.now() - t);
    }
  };
  /** Ends this attempt, claiming the next render when `claim` and the worker is not stopping. */
  const end = async (final: Parameters<typeof statements.endAttempt>[3], claim = true) => {
    const lease = claim && keepClaiming() ? leaseMs() : undefined;
    const { ended, next } = await timed("end", () => statements.endAttempt(db(), row.id, row.attempts, final, lease));
    return { ended, after: lease === undefined ? ("queue not read" as const) : (next ?? ("queue empty" as const)) };
  };
  /** Stores the file where it goes and ends the attempt as succeeded. */
  const succeed = async (out: RenderOutput, claim: boolean): Promise<After> => {
    // spec: Render destination > keepCopy: false keeps no service copy.
    const fileKey = row.keepCopy ? renderFileKey(row, row.attempts) : null;
    if (row.destinationId === null) await timed("store", () => fileStore().put(fileKey!, out.bytes, contentTypes[row.format]));
    else await deliverToDestination(row, out.bytes, fileKey, controller.signal, timed);
    const { ended, after } = await end(
      { state: "succeeded", pageCount: out.pageCount, outputBytes: out.bytes.byteLength, durationMs: Math.round(performance.now() - started), fileKey, warnings: out.warnings },
      claim,
    );
    if (!ended && fileKey) await fileStore().delete([fileKey]); // cancelled while it was being stored
    logAttempt(row, ended ? { state: "succeeded" } : { state: "stopped" }, ms);
    return after;
  };
  let detached = false;
  try {
    const document = CallerDocument.parse(row.payload?.document);
    const out = await timed("render", () =>
      renderDocument(
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
          assets: row.payload?.assets === undefined ? undefined : AssetRefs.parse(row.payload.assets),
        },
        controller.signal,
      ),
    );
    if (row.destinationId === null) return await succeed(out, true);
    // why detached: the upload waits on the caller's object store, which may be slow or down; the
    // render slot (a browser page) goes on to the next render meanwhile, so an outage of one
    // workspace's store never holds up other workspaces' renders. The render's time limit and
    // lease still run until the upload ends.
    detached = true;
    await detach(() =>
      succeed(out, false)
        .catch((e: unknown) => recordFailure(row, e, (final) => end(final, false), ms))
        .catch((err: unknown) => log().error({ err, renderId: row.id }, "ending a render after its upload failed"))
        .finally(close),
    );
    return "queue not read";
  } catch (e) {
    return await recordFailure(row, e, end, ms);
  } finally {
    if (!detached) close();
  }
}

/** Uploads to storage destinations in flight on this worker, outside the render slots. */
const uploads = new Set<Promise<unknown>>();
/**
 * At most this many at once; a slot that would start one more waits for one to end. Each holds its
 * file in memory; one workspace cannot reach the bound alone unless its maxActiveRenders is above it.
 */
export const MAX_DETACHED_UPLOADS = 32;

async function detach(work: () => Promise<unknown>): Promise<void> {
  while (uploads.size >= MAX_DETACHED_UPLOADS) await Promise.race(uploads);
  const p = work().finally(() => uploads.delete(p));
  uploads.add(p);
}

/** Waits for the uploads in flight to end (the worker's graceful stop, after its slots stopped). */
export async function settleUploads(): Promise<void> {
  while (uploads.size > 0) await Promise.allSettled([...uploads]);
}

/**
 * A render with a storage destination: its file uploaded there (with the destination's current
 * credentials) and, unless keepCopy is false, stored as the service copy, both at once. The render
 * succeeds only when both did; a stored copy of a failed upload is deleted.
 */
async function deliverToDestination(
  row: ClaimedRender,
  bytes: Uint8Array,
  fileKey: string | null,
  signal: AbortSignal,
  timed: <T>(phase: "store" | "upload", work: () => Promise<T>) => Promise<T>,
) {
  const type = contentTypes[row.format];
  const [stored, uploaded] = await Promise.allSettled([
    fileKey === null ? Promise.resolve() : timed("store", () => fileStore().put(fileKey, bytes, type)),
    timed("upload", () => uploadRenderOutput(row, bytes, type, signal)),
  ]);
  if (uploaded.status === "rejected") {
    if (fileKey !== null && stored.status === "fulfilled") await fileStore().delete([fileKey]);
    throw uploaded.reason;
  }
  if (stored.status === "rejected") throw stored.reason;
}

type End = (final: { state: "failed"; error: RenderErrorRecord }) => Promise<{ ended: boolean; after: After }>;

/** Ends a failed attempt: put back in the queue when the machinery failed and attempts are left, else failed. */
async function recordFailure(row: ClaimedRender, e: unknown, end: End, ms: Phases): Promise<After> {
  if (e instanceof RenderAborted && e.reason === "cancelled") {
    logAttempt(row, { state: "stopped" }, ms); // the cancel already ended it
    return "queue not read";
  }
  const transient = e instanceof TransientRenderError || (e instanceof DestinationUploadFailed && e.transient);
  if (transient && row.attempts < MAX_ATTEMPTS) {
    const requeued = await statements.requeueRender(db(), row.id, row.attempts);
    logAttempt(row, requeued ? { state: "queued", err: e } : { state: "stopped" }, ms);
    return "queue not read";
  }
  const { error, err } = failureOf(e);
  const { ended, after } = await end({ state: "failed", error });
  logAttempt(row, ended ? { state: "failed", diagnostic: error.diagnostic, err } : { state: "stopped" }, ms);
  return after;
}

/** The error record of a failed attempt, and the error itself (for the log) when nobody expected it. */
function failureOf(e: unknown): { error: RenderErrorRecord; err?: unknown } {
  if (e instanceof RenderAborted) {
    const s = config().RENDER_TIMEOUT_MS / 1000;
    const waiting = e.awaiting ? `; it was still waiting for ${e.awaiting}` : "";
    return { error: { code: "LIMIT_EXCEEDED", diagnostic: "LIMIT_EXCEEDED", message: `The render took longer than its time limit of ${s} s${waiting}` } };
  }
  if (e instanceof RenderFailure) return { error: { code: e.code, diagnostic: e.diagnostic, message: e.message } };
  // spec: Errors > destination_upload_failed: the message names the cause.
  if (e instanceof DestinationUploadFailed) return { error: { code: "RENDER_FAILED", diagnostic: "destination_upload_failed", message: e.message } };
  return { error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: "The render stopped unexpectedly" }, err: e };
}

/** Stops the work of renders that end elsewhere (cancelled) while this worker renders them. */
export async function watchCancellations() {
  await onRenderStopped((id) => inflight.get(id)?.abort("cancelled"));
}

/** Renews the claims of this worker's renders; called every few seconds. */
export async function renewLeases() {
  await repo.renewLeases(db(), [...inflight.keys()], leaseMs());
}

/**
 * Takes back renders whose worker stopped renewing its claim (it crashed or was killed): another
 * attempt while attempts are left, else failed with render_process_exited. The file the dead
 * attempt may have stored is deleted: no render points at it.
 */
export async function reapAbandonedRenders(): Promise<number> {
  const rows = await withTx(async (tx: Tx) => {
    const rows = await repo.lockExpiredLeases(tx, 50);
    for (const r of rows) {
      if (r.attempts < MAX_ATTEMPTS) {
        await statements.requeueRender(tx, r.id, r.attempts);
      } else {
        await statements.endRender(tx, { id: r.id }, ["processing"], {
          state: "failed",
          error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: `The render stopped ${r.attempts} times (its worker exited)` },
        });
      }
    }
    await deleteFilesLater(tx, rows.map((r) => renderFileKey(r, r.attempts)));
    return rows;
  });
  for (const r of rows) logTakenBack(r, r.attempts < MAX_ATTEMPTS ? "queued" : "failed");
  return rows.length;
}
