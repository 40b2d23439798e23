import type { FileDownload } from "../renders";

/** Headers of a stored file sent to a client. */
export function fileHeaders(f: Pick<FileDownload, "contentType" | "filename" | "size">): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": f.contentType,
    "content-disposition": `inline; filename="${f.filename.replace(/[^\w.-]/g, "_")}"`,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
  if (f.size !== undefined) headers["content-length"] = String(f.size);
  return headers;
}

/** Streams a stored file; never buffers it whole. */
export function fileResponse(f: FileDownload): Response {
  return new Response(f.body, { status: 200, headers: fileHeaders(f) });
}
