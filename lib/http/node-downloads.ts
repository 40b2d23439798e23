import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { config } from "../config";
import { log } from "../log";
import { downloadByToken } from "../renders";
import { addressBucket, clientAddress } from "./client-address";
import { toErrorResponse } from "./errors";
import { fileHeaders } from "./file-response";
import { countRequest } from "./rate-limit";
import { requestIdFrom } from "./request-id";

export const DOWNLOAD_PREFIX = "/v1/storage/downloads/";

/**
 * Serves a signed download link straight from the Node server, without Next.js: the same rate
 * limit, envelope and log line as apiRoute, a fraction of the work per file on the render path.
 * (web.ts routes these requests here before Next.js sees them.)
 */
export async function serveDownload(req: IncomingMessage, res: ServerResponse, pathname: string) {
  const started = performance.now();
  const requestId = requestIdFrom(req.headers["x-request-id"]);
  const logger = log().child({ requestId });
  const headers = new Headers();
  for (const name of ["x-folio-client-ip", "x-forwarded-for"]) {
    const v = req.headers[name];
    if (typeof v === "string") headers.set(name, v);
  }
  try {
    await countRequest(`api:${addressBucket(clientAddress(headers))}`, config().API_RATE_LIMIT_PER_MINUTE);
    const file = await downloadByToken(decodeURIComponent(pathname.slice(DOWNLOAD_PREFIX.length)));
    res.writeHead(200, { ...fileHeaders(file), "x-request-id": requestId });
    if (file.body instanceof Uint8Array) res.end(file.body);
    else await pipeline(file.body, res); // a client that goes away ends the file's stream too
  } catch (err) {
    if (res.headersSent) {
      // The client went away, or the file could not be read to its end: nothing left to answer.
      logger.warn({ err }, "download ended early");
      res.destroy();
    } else {
      const r = toErrorResponse(err, requestId, logger);
      res.writeHead(r.status, { ...Object.fromEntries(r.headers), "x-request-id": requestId });
      res.end(await r.text());
    }
  }
  logger.info({ method: "GET", path: DOWNLOAD_PREFIX, status: res.statusCode, durationMs: Math.round(performance.now() - started) }, "request");
}
