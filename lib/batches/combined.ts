import crypto from "node:crypto";
import { requireScope, type Ctx } from "../auth/context";
import { db } from "../db/client";
import type { RenderRow } from "../db/schema";
import { AppError, conflict, notFound, rateLimited } from "../errors";
import { bytesOf, fileStore } from "../files/store";
import { log } from "../log";
import { HelperJobError, HelperLimitError, HelperPool } from "../offload/pool";
import * as repo from "./repository";

/** spec: Limits > Batches: the combined PDF of all items. */
export const MAX_COMBINED_BYTES = 50 * 1024 * 1024;

type Item = { batchIndex: number | null; id: string };
/** decisions.md: errors about one batch item start "Batch item N:" and name its render ID. */
const about = (r: Item, text: string) => `Batch item ${r.batchIndex}: render ${r.id} ${text}`;

/**
 * Why the batch's PDFs cannot be joined now, as the error to answer, or undefined when they can
 * (spec rule 3's table, in its order); decided from the rows alone, before any file is read.
 */
export function combineRefusal(id: string, items: RenderRow[]): AppError | undefined {
  const active = items.find((r) => r.state === "queued" || r.state === "processing");
  if (active) {
    const left = items.filter((r) => r.state === "queued" || r.state === "processing").length;
    return conflict(`Batch ${id} is still rendering (${left} of ${items.length} items queued or processing, the first is item ${active.batchIndex}, render ${active.id}); retry when they have ended`, { retryable: true });
  }
  const ended = items.find((r) => r.state === "failed" || r.state === "cancelled");
  if (ended) return conflict(about(ended, `${ended.state}; a combined PDF needs every item to succeed`));
  const image = items.find((r) => r.format !== "pdf");
  if (image) return new AppError("BAD_REQUEST", about(image, `is a ${image.format.toUpperCase()} image; only PDF items can be combined`));
  const noCopy = items.find((r) => !r.fileKey);
  if (noCopy) return conflict(about(noCopy, "kept no copy (keepCopy was false); its file is only in its storage destination"));
  const total = items.reduce((n, r) => n + (r.outputBytes ?? 0), 0);
  if (total > MAX_COMBINED_BYTES) {
    return new AppError("LIMIT_EXCEEDED", `The batch's PDFs are ${total} bytes together; a combined PDF may be at most 50 MiB`);
  }
  return undefined;
}

/**
 * The web process's helper for joining (lib/offload): pdf-lib reads every item whole, up to 50 MiB
 * of PDFs, for seconds; on the event loop that would hold up every other request meanwhile. One
 * join at a time per web process (up to JOINS_AT_ONCE - 1 more wait their turn, admitJoin), its
 * heap and time bounded.
 */
let joiner: HelperPool | undefined;
export const JOIN_MEMORY_MB = 2048;
export const JOIN_TIMEOUT_MS = 120_000;
const joinHelper = () => (joiner ??= new HelperPool({ name: "batch-pdf", preload: ["joinPdfs"], warmHelpers: 1, maxHelpers: 1, memoryMb: JOIN_MEMORY_MB, timeoutMs: JOIN_TIMEOUT_MS }));

/**
 * Joined PDFs kept in this process's memory, by workspace, batch and the items' files: a batch's
 * items never change once they all succeeded (an item deleted by retention changes the key), so a
 * second download is the same bytes. Not stored anywhere (spec rule 3: "not stored"): a restart or
 * another web node joins again. Bounded in bytes and age; the least recently used goes first.
 */
const KEEP_BYTES = 128 * 1024 * 1024;
const KEEP_MS = 10 * 60_000;
const kept = new Map<string, { bytes: Uint8Array; at: number }>();
let keptBytes = 0;
/** Joins under way, so simultaneous first downloads join once. */
const joining = new Map<string, Promise<Uint8Array>>();

function keptOf(key: string): Uint8Array | undefined {
  const hit = kept.get(key);
  if (!hit) return undefined;
  kept.delete(key);
  if (Date.now() - hit.at > KEEP_MS) {
    keptBytes -= hit.bytes.byteLength;
    return undefined;
  }
  kept.set(key, hit); // most recently used last
  return hit.bytes;
}

function keep(key: string, bytes: Uint8Array) {
  for (const [k, v] of kept) {
    if (Date.now() - v.at <= KEEP_MS) continue;
    kept.delete(k); // past its age: not kept longer for want of a lookup
    keptBytes -= v.bytes.byteLength;
  }
  if (bytes.byteLength > KEEP_BYTES / 2) return;
  kept.set(key, { bytes, at: Date.now() });
  keptBytes += bytes.byteLength;
  for (const [k, v] of kept) {
    if (keptBytes <= KEEP_BYTES) break;
    kept.delete(k);
    keptBytes -= v.bytes.byteLength;
  }
}

/**
 * GET /v1/renders/batch/{id}/pdf (render:read): the items' PDFs joined in item order, on the join
 * helper, then kept in memory for the next download of the same items (see `kept`). The refusals
 * of spec rule 3, in the table's order: an item still rendering (409, retryable), one failed or
 * cancelled, an image item, one that kept no copy, and the PDFs together over 50 MiB; each names
 * the first such item by index and render ID. They are decided from the rows on every request,
 * before anything kept is answered.
 */
export async function combinedPdf(ctx: Ctx, id: string): Promise<{ body: Uint8Array; filename: string }> {
  requireScope(ctx, "render:read");
  const batch = await repo.findBatch(db(), ctx.workspaceId, id);
  if (!batch) throw notFound("batch", id);
  const items = await repo.listItems(db(), ctx.workspaceId, id);
  if (items.length === 0) throw notFound("render of batch", id); // every item deleted by retention
  const refused = combineRefusal(id, items);
  if (refused) throw refused;
  const key = crypto.createHash("sha256").update(JSON.stringify([ctx.workspaceId, id, items.map((r) => [r.id, r.fileKey])])).digest("hex");
  const hit = keptOf(key);
  if (hit) return { body: hit, filename: `${id}.pdf` };
  let p = joining.get(key);
  if (!p) {
    const release = admitJoin(ctx.workspaceId);
    p = join(id, items, key).finally(() => {
      joining.delete(key);
      release();
    });
    joining.set(key, p);
  }
  const body = await p;
  return { body, filename: `${id}.pdf` };
}

/**
 * Joins under way in this process (reading the items, waiting for the helper, or joining), by
 * workspace. Each holds up to 50 MiB of PDFs from its first read, so their number is bounded
 * before anything is read: one per workspace and JOINS_AT_ONCE in all; past either, 429 without
 * Retry-After (spec: the server is busy). why per workspace: one workspace's downloads of many
 * batches must not keep every other workspace's waiting behind them, nor fill the memory.
 */
export const JOINS_AT_ONCE = 4;
const joinsBy = new Map<string, number>();
let joinsInAll = 0;

export function admitJoin(workspaceId: string): () => void {
  if ((joinsBy.get(workspaceId) ?? 0) >= 1) throw rateLimited("This workspace's combined PDF of another batch is being made; retry when it is done");
  if (joinsInAll >= JOINS_AT_ONCE) throw rateLimited(`${JOINS_AT_ONCE} combined PDFs are being made on this server; retry in a moment`);
  joinsBy.set(workspaceId, (joinsBy.get(workspaceId) ?? 0) + 1);
  joinsInAll++;
  return () => {
    const left = (joinsBy.get(workspaceId) ?? 1) - 1;
    if (left > 0) joinsBy.set(workspaceId, left);
    else joinsBy.delete(workspaceId);
    joinsInAll--;
  };
}

/** Reads the items' files and joins them in the join helper; the result is kept under `key`. */
async function join(id: string, items: RenderRow[], key: string): Promise<Uint8Array> {
  const files = await Promise.all(
    items.map(async (r) => {
      const f = await fileStore().get(r.fileKey!);
      if (!f) throw new AppError("NOT_FOUND", about(r, "has no file any more"));
      return bytesOf(f.body);
    }),
  );
  const started = performance.now();
  try {
    const body = await joinHelper().run<Uint8Array>("joinPdfs", [files]);
    const ms = Math.round(performance.now() - started);
    log().info({ batchId: id, items: items.length, bytes: body.byteLength, ms }, "batch PDF joined");
    keep(key, body);
    return body;
  } catch (e) {
    if (e instanceof HelperLimitError) {
      throw new AppError("LIMIT_EXCEEDED", `The batch's PDFs could not be joined: ${e.message}; a combined PDF may need at most ${JOIN_MEMORY_MB} MiB of memory and ${JOIN_TIMEOUT_MS / 1000} s`);
    }
    if (!(e instanceof HelperJobError && e.remoteName === "UnjoinablePdf")) throw e;
    // spec: password protected or signed items cannot be joined.
    const index = Number(/^item (\d+)/.exec(e.message)?.[1] ?? 0);
    const r = items[index]!;
    throw new AppError("UNSUPPORTED_FEATURE", about(r, `cannot be joined (password protected, signed or unreadable): ${e.message.replace(/^item \d+: /, "")}`));
  }
}
