import { config } from "../config";
import { HelperPool } from "../offload/pool";
import type { ParsedFont } from "./font-parse";
import type { Metadata } from "./pdf";

/**
 * The worker's helper processes for what a render parses or rebuilds in Node (lib/offload): a
 * caller's font (fontkit) and the printed PDF (pdf-lib). Off the event loop that renews every
 * render's lease, and under limits, so one document's font or PDF fails its own render only
 * (docs/architecture.md, Threat model).
 */

/** spec: Limits > Renders: other working memory, 256 MiB. */
export const FONT_HELPER_MEMORY_MB = 256;
/** A font that takes longer than this to read is refused (a real one takes milliseconds). */
export const FONT_PARSE_TIMEOUT_MS = 10_000;
/**
 * pdf-lib holds the whole document as objects: several times its bytes (a PDF may be 50 MiB).
 * why not 256 MiB: a large legitimate document would fail where it rendered before.
 */
export const PDF_HELPER_MEMORY_MB = 1024;

let fonts: HelperPool | undefined;
let pdfs: HelperPool | undefined;

export function fontHelpers(): HelperPool {
  return (fonts ??= new HelperPool({ name: "fonts", preload: ["parseFont"], warmHelpers: 1, maxHelpers: 2, memoryMb: FONT_HELPER_MEMORY_MB, timeoutMs: FONT_PARSE_TIMEOUT_MS }));
}

export function pdfHelpers(): HelperPool {
  const cfg = config();
  return (pdfs ??= new HelperPool({ name: "pdf", preload: ["postProcessPdf", "stampWithPdfLib"], warmHelpers: 1, maxHelpers: Math.min(4, cfg.WORKER_CONCURRENCY), memoryMb: PDF_HELPER_MEMORY_MB, timeoutMs: cfg.RENDER_TIMEOUT_MS }));
}

/** Starts the warm helpers (the worker's start), so the first render does not wait for one. */
export async function warmRenderHelpers() {
  await Promise.all([fontHelpers().warm(), pdfHelpers().warm()]);
}

/** Ends the helpers (the worker's stop, tests). */
export async function closeRenderHelpers() {
  await Promise.all([fonts?.close(), pdfs?.close()]);
}

export const parseFontInHelper = (bytes: Uint8Array) => fontHelpers().run<ParsedFont>("parseFont", [bytes]);

export const postProcessInHelper = (pdf: Uint8Array, opts: { watermark: boolean; metadata: Metadata }, signal: AbortSignal) =>
  pdfHelpers().run<Uint8Array>("postProcessPdf", [pdf, opts], { signal });

export const stampWithPdfLibInHelper = (body: Uint8Array, overlay: Uint8Array, targets: number[] | undefined, signal?: AbortSignal) =>
  pdfHelpers().run<Uint8Array>("stampWithPdfLib", [body, overlay, targets], { signal });
