import type { FileDownload } from "../renders";

/** Streams a stored file; never buffers it whole. */
export function fileResponse(f: FileDownload): Response {
  const headers: Record<string, string> = {
    "content-type": f.contentType,
    "content-disposition": `inline; filename="${f.filename.replace(/[^\w.-]/g, "_")}"`,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
  if (f.size !== undefined) headers["content-length"] = String(f.size);
  return new Response(f.body, { status: 200, headers });
}
