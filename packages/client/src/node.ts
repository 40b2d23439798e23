// Node-only helpers (files on disk), apart from the client so that the client itself needs
// nothing but fetch.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Folio } from "./client.js";
import { FolioError } from "./errors.js";

/**
 * Streams a succeeded render's file to `path` (written to `path.part`, renamed when complete, so a
 * failed download leaves no half file) and returns the bytes written. Reads GET
 * /v1/renders/{id}/file, so no download link can have expired meanwhile.
 */
export async function downloadRender(folio: Folio, id: string, path: string, options: { signal?: AbortSignal } = {}): Promise<number> {
  return saveResponse(await folio.renders.file(id, options), path, options.signal);
}

/** The same for a batch's combined PDF. */
export async function downloadBatchPdf(folio: Folio, id: string, path: string, options: { signal?: AbortSignal } = {}): Promise<number> {
  return saveResponse(await folio.batches.pdf(id, options), path, options.signal);
}

async function saveResponse(res: Response, path: string, signal?: AbortSignal): Promise<number> {
  if (!res.body) throw new FolioError("NETWORK", "the file's answer had no body", res.status);
  const part = `${path}.part`;
  let written = 0;
  const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("data", (chunk: Buffer) => (written += chunk.length));
  try {
    await pipeline(body, createWriteStream(part), { signal });
    await rename(part, path);
    return written;
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
}
