import type { IncomingMessage, ServerResponse } from "node:http";
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
