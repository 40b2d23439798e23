import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { LENGTH_HEADER } from "./file-response";
import type { HeaderSource } from "./client-address";
import { errorAnswer, type Exchange } from "./steps";

/** A Node request's headers read like a fetch Request's, without copying them all. */
export function headersOf(req: IncomingMessage): HeaderSource {
  return {
    get: (name) => {
      const v = req.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
  };
}

/** Sends a small answer whole: status, headers and body leave in one write. */
export async function sendWhole(res: ServerResponse, response: Response) {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

/**
 * The answer of a Node-level handler that failed: the envelope while nothing was sent yet, else
 * the connection is cut, since half an answer cannot be taken back (the client went away, or a
 * file could not be read to its end).
 */
export async function sendFailure(x: Exchange, res: ServerResponse, err: unknown) {
  if (!res.headersSent) return sendWhole(res, errorAnswer(x, err));
  x.log.warn({ err }, "answer ended early");
  res.destroy();
}

/**
 * Makes `res` send LENGTH_HEADER as `content-length` (see lib/http/file-response.ts): checked as
 * the head is written, whichever way it is written (Next.js sets headers one by one, then writes).
 */
export function keepLength(res: ServerResponse) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const length = res.getHeader(LENGTH_HEADER);
    if (length !== undefined) {
      res.removeHeader(LENGTH_HEADER);
      // why only without an encoding: a compressed body has another length.
      if (!res.hasHeader("content-encoding") && !res.hasHeader("content-length")) res.setHeader("content-length", length);
      res.removeHeader("transfer-encoding");
    }
    const last = args[args.length - 1];
    if (last && typeof last === "object" && !Array.isArray(last) && LENGTH_HEADER in (last as OutgoingHttpHeaders)) delete (last as OutgoingHttpHeaders)[LENGTH_HEADER];
    return writeHead.apply(this, args as never);
  } as ServerResponse["writeHead"];
}
