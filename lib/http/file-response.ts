import { Readable } from "node:stream";
import type { FileDownload } from "../renders";
import { AppError, isAppError } from "../errors";

const webBody = (body: FileDownload["body"]): BodyInit => (body instanceof Readable ? (Readable.toWeb(body) as ReadableStream<Uint8Array>) : (body as Uint8Array<ArrayBuffer>));

/** Headers of a stored file sent to a client. */
export function fileHeaders(f: Pick<FileDownload, "contentType" | "filename" | "size">): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": f.contentType,
    "content-disposition": `inline; filename="${f.filename.replace(/[^\w.-]/g, "_")}"`,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
  if (f.size !== undefined) headers["content-length"] = String(f.size);
  // why: an uploaded SVG opened from its link would otherwise run its scripts in Folio's origin.
  if (f.contentType === "image/svg+xml") headers["content-security-policy"] = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";
  return headers;
}

/**
 * The length of a file answered through Next.js, under a name Next passes on. why: Next.js drops
 * `content-length` from every route handler's answer (next/dist/server/send-response.js) and sends
 * the file chunked; lib/server/web.ts turns this header back into `content-length` as the answer's
 * head leaves (`keepLength`), so clients see the size before the bytes, as with download links.
 */
export const LENGTH_HEADER = "x-folio-content-length";

/** fileHeaders for an answer that goes through Next.js. */
function nextFileHeaders(f: Pick<FileDownload, "contentType" | "filename" | "size">): Record<string, string> {
  const headers = fileHeaders(f);
  if (f.size !== undefined) headers[LENGTH_HEADER] = String(f.size);
  return headers;
}

/** Streams a stored file; never buffers it whole. */
export function fileResponse(f: FileDownload): Response {
  return new Response(webBody(f.body), { status: 200, headers: nextFileHeaders(f) });
}

/** The most of a Handlebars preview's console output one header carries (docs/api.md, Handlebars templates). */
export const CONSOLE_HEADER_BYTES = 8000;

/**
 * A Handlebars preview's console output as headers: `x-folio-console`, base64 of the JSON array of
 * entries `{step, level, message}`, in order, as many as fit in 8,000 bytes; `x-folio-console-omitted`,
 * how many entries after them did not fit. why a header: the answer of a pdf or png preview is the
 * file itself, and every format should give the console editor the same pane.
 */
export function consoleHeaders(entries: readonly { step: string; level: string; message: string }[] | undefined): Record<string, string> {
  if (!entries) return {};
  const encode = (n: number) => Buffer.from(JSON.stringify(entries.slice(0, n))).toString("base64");
  // The most leading entries whose encoding fits (at most 100 entries: a few encodings).
  let [fits, over] = [0, entries.length + 1];
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    if (encode(mid).length <= CONSOLE_HEADER_BYTES) fits = mid;
    else over = mid;
  }
  return { "x-folio-console": encode(fits), "x-folio-console-omitted": String(entries.length - fits) };
}

/**
 * A preview whose template code failed in the sandbox (400 BAD_REQUEST or LIMIT_EXCEEDED) answers
 * what its steps logged before the failure, in the same headers a successful one does (docs/api.md,
 * Handlebars templates): the failure is often explained by the lines just before it. Renders,
 * batches and the Reports API do not answer console output, so only the preview route calls this.
 */
export function withConsoleHeaders(e: unknown): never {
  if (!isAppError(e) || !e.console) throw e;
  throw new AppError(e.code, e.message, { details: e.details, status: e.status, retryable: e.retryable, current: e.current, renderId: e.renderId, headers: { ...e.headers, ...consoleHeaders(e.console) } });
}

/** The media type of XLSX output (spec: Asset kinds, workbook). */
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

type Answer = ({ kind: "file"; file: FileDownload; renderId: string; pageCount: number } | { kind: "html"; html: string } | { kind: "xlsx"; bytes: Uint8Array; filename: string }) & {
  console?: readonly { step: string; level: string; message: string }[];
};

/**
 * A file a render answered with directly (Reports API, previews). HTML output is served sandboxed:
 * it is built from template data, and a browser opening it must not run anything in our origin.
 */
export function answerResponse(a: Answer): Response {
  if (a.kind === "file") {
    const headers = { ...nextFileHeaders(a.file), "x-render-id": a.renderId, "x-page-count": String(a.pageCount), ...consoleHeaders(a.console) };
    return new Response(webBody(a.file.body), { status: 200, headers });
  }
  if (a.kind === "xlsx") {
    // why attachment: a browser has no view of a workbook; it saves it under the template's name.
    const headers = { ...nextFileHeaders({ contentType: XLSX_TYPE, filename: a.filename, size: a.bytes.byteLength }), ...consoleHeaders(a.console) };
    headers["content-disposition"] = headers["content-disposition"]!.replace(/^inline/, "attachment");
    return new Response(a.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
  }
  return new Response(a.html, {
    status: 200,
    headers: {
      ...consoleHeaders(a.console),
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** A zip made for the caller (an export) as a download: its name the folder's, or "workspace.zip". */
export function zipResponse(a: { bytes: Uint8Array; filename: string }): Response {
  const headers = nextFileHeaders({ contentType: "application/zip", filename: a.filename, size: a.bytes.byteLength });
  headers["content-disposition"] = headers["content-disposition"]!.replace(/^inline/, "attachment");
  return new Response(a.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
}
