import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { downloadByToken } from "../renders";
import { fileHeaders } from "./file-response";
import { headersOf, sendFailure } from "./node";
import { beginRequest, countApiRequest, logRequest } from "./steps";

export const DOWNLOAD_PREFIX = "/v1/storage/downloads/";

/**
 * Serves a signed download link straight from the Node server, without Next.js: the same steps as
 * apiRoute (request id, rate limit, envelope, log line), a fraction of the work per file on the
 * render path. (web.ts routes these requests here before Next.js sees them.)
 */
export async function serveDownload(req: IncomingMessage, res: ServerResponse, pathname: string) {
  const x = beginRequest(req.headers["x-request-id"]);
  try {
    await countApiRequest(headersOf(req));
    // why not percent-decoded: a token is base64url, which needs no encoding; anything encoded is
    // not a token Folio issued and fails verification like any other, with 403.
    const file = await downloadByToken(pathname.slice(DOWNLOAD_PREFIX.length));
    res.writeHead(200, { ...fileHeaders(file), "x-request-id": x.requestId });
    if (file.body instanceof Uint8Array) res.end(file.body);
    else await pipeline(file.body, res); // a client that goes away ends the file's stream too
  } catch (err) {
    await sendFailure(x, res, err);
  }
  logRequest(x, "GET", DOWNLOAD_PREFIX, res.statusCode);
}
