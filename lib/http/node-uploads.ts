import type { IncomingMessage, ServerResponse } from "node:http";
import { uploadAsset } from "../assets/upload";
import { headersOf, sendFailure } from "./node";
import { beginRequest, countApiRequest, logRequest } from "./steps";

export const UPLOAD_PREFIX = "/v1/storage/uploads/";

/**
 * why any origin: the link is the whole credential (no cookie is read), so a web page of any site
 * that holds one may upload to it, as with a presigned S3 URL.
 */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "PUT",
  "access-control-allow-headers": "content-type, x-folio-sha256, x-request-id",
  "access-control-expose-headers": "x-request-id",
  "access-control-max-age": "600",
};

/**
 * Serves an asset's upload link (PUT) straight from the Node server, like downloads: request id,
 * rate limit, the envelope, a log line. The body streams through the checks without Next.js
 * buffering it; an answer sent before the body was read whole leaves the rest to the web server,
 * which reads and drops it within bounds (lingerAfterAnswer), so a client still sending gets the
 * answer rather than a reset, and nothing of the unread body is taken for the next request.
 */
export async function serveUpload(req: IncomingMessage, res: ServerResponse, pathname: string) {
  const x = beginRequest(req.headers["x-request-id"]);
  const method = req.method ?? "PUT";
  if (method === "OPTIONS") {
    res.writeHead(204, { ...CORS, "x-request-id": x.requestId });
    res.end();
    logRequest(x, method, UPLOAD_PREFIX, 204);
    return;
  }
  for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
  try {
    await countApiRequest(headersOf(req));
    // why not percent-decoded: a token is base64url; anything else fails verification with 403.
    const asset = await uploadAsset(pathname.slice(UPLOAD_PREFIX.length), {
      header: (name) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(", ") : v;
      },
      body: req,
    });
    const body = JSON.stringify(asset);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-request-id": x.requestId });
    res.end(body);
  } catch (err) {
    if (req.errored) {
      // The client went away mid-body: nobody is left to answer, and nothing was stored.
      x.log.warn({ err: req.errored.message }, "upload cut short by the client");
      res.destroy();
    } else {
      await sendFailure(x, res, err);
    }
  }
  logRequest(x, method, UPLOAD_PREFIX, res.statusCode);
}
