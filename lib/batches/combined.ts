import { Readable } from "node:stream";
import { requireScope, type Ctx } from "../auth/context";
import { db } from "../db/client";
import type { RenderRow } from "../db/schema";
import { AppError, conflict, notFound } from "../errors";
import { fileStore } from "../files/store";
import { joinPdfs, UnjoinablePdf } from "./combine";
import * as repo from "./repository";

/** spec: Limits > Batches: the combined PDF of all items. */
export const MAX_COMBINED_BYTES = 50 * 1024 * 1024;

async function bytesOf(body: Readable | Uint8Array): Promise<Uint8Array> {
  if (!(body instanceof Readable)) return body;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

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
 * GET /v1/renders/batch/{id}/pdf (render:read): the items' PDFs joined in item order, built on
 * each request and never stored. The refusals of spec rule 3, in the table's order: an item still
 * rendering (409, retryable), one failed or cancelled, an image item, one that kept no copy, and
 * the PDFs together over 50 MiB; each names the first such item by index and render ID.
 */
export async function combinedPdf(ctx: Ctx, id: string): Promise<{ body: Uint8Array; filename: string }> {
  requireScope(ctx, "render:read");
  const batch = await repo.findBatch(db(), ctx.workspaceId, id);
  if (!batch) throw notFound("batch", id);
  const items = await repo.listItems(db(), ctx.workspaceId, id);
  if (items.length === 0) throw notFound("render of batch", id); // every item deleted by retention
  const refused = combineRefusal(id, items);
  if (refused) throw refused;
  const files = await Promise.all(
    items.map(async (r) => {
      const f = await fileStore().get(r.fileKey!);
      if (!f) throw new AppError("NOT_FOUND", about(r, "has no file any more"));
      return bytesOf(f.body);
    }),
  );
  try {
    return { body: await joinPdfs(files), filename: `${id}.pdf` };
  } catch (e) {
    if (!(e instanceof UnjoinablePdf)) throw e;
    // spec: password protected or signed items cannot be joined.
    const index = Number(/^item (\d+)/.exec(e.message)?.[1] ?? 0);
    const r = items[index]!;
    throw new AppError("UNSUPPORTED_FEATURE", about(r, `cannot be joined (password protected, signed or unreadable): ${e.message.replace(/^item \d+: /, "")}`));
  }
}
