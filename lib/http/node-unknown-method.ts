import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "../errors";
import { log } from "../log";
import { toErrorResponse } from "./errors";
import { requestIdFrom } from "./request-id";

/**
 * Next.js answers a method that a route does not export with a bare 405 and no body. In the API
 * an endpoint is a method and a path, so such a request asks for an unknown endpoint (spec:
 * Versioning: 404 to an unknown endpoint): this turns that answer into the same 404 NOT_FOUND
 * envelope an unknown path gets. Call it for /v1 requests before Next.js handles them.
 */
export function answerUnknownMethodsWithEnvelope(req: IncomingMessage, res: ServerResponse, pathname: string) {
  const { writeHead, end } = res;
  let unknownMethod = false;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    res.writeHead = writeHead;
    if (status === 405) {
      unknownMethod = true; // answered in end()
      return res;
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse["writeHead"];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    res.writeHead = writeHead;
    if (!unknownMethod && (res.statusCode !== 405 || res.headersSent)) return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    const answer = toErrorResponse(new AppError("NOT_FOUND", `No endpoint ${req.method} ${pathname}`), requestId, log().child({ requestId }));
    void answer.text().then((body) => {
      res.statusCode = answer.status;
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(body);
    });
    return res;
  } as ServerResponse["end"];
}
