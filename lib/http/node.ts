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

/** How long and how much of a body is read and dropped after its answer (lingerAfterAnswer). */
export const LINGER = {
  /** Without a byte for this long, the client is not sending the rest: the connection ends. */
  idleMs: 2000,
  totalMs: 30_000,
  /** Twice the largest body limit (a batch's 32 MiB): a body just over any limit is read to its end. */
  bytes: 64 * 1024 * 1024,
};

/**
 * An answer sent before its request's body was read (a 413 on Content-Length, a refusal before
 * reading, a body given up one byte past its limit): the rest of the body is read and dropped, and
 * the connection serves the next request. why: a socket closed with bytes still arriving is reset,
 * and a client still writing its body (Node's http, fetch) then reports EPIPE or ECONNRESET instead
 * of the answer waiting for it (the lingering close of other HTTP servers). Only while the body
 * keeps coming and within LINGER's bounds (2 s without a byte, 30 s or 64 MiB in all): past them the
 * connection is destroyed. Kept open, it would hold the socket (and a graceful stop) for as long as
 * the client liked.
 *
 * A handler that gives up on a body cancels its stream, which destroys the request: the rest of
 * the body could then not be read, and Node destroys the socket of an unfinished request (unless
 * the canceller took the socket off it first). Until the answer is sent, destroying a request
 * whose body has not all arrived only stops the reading; other destroys are Node's own.
 */
export function lingerAfterAnswer(req: IncomingMessage, res: ServerResponse) {
  // why kept: Node's stream utilities take the socket off a server request before destroying it.
  const socket = req.socket;
  const destroy = req.destroy;
  req.destroy = function (this: IncomingMessage, err?: Error) {
    if (this.complete || res.writableFinished || socket.destroyed) return destroy.call(this, err);
    this.socket = socket; // the request reads on through it
    this.pause();
    return this;
  };
  res.once("finish", () => {
    if (req.complete || socket.destroyed) return;
    const end = () => socket.destroy();
    const idle = setTimeout(end, LINGER.idleMs).unref();
    const total = setTimeout(end, LINGER.totalMs).unref();
    const stop = () => (clearTimeout(idle), clearTimeout(total));
    let dropped = 0;
    // why remove the readers: a web stream made of the request (the handler's body, read no more)
    // pauses the request whenever its queue is full, so the rest would never be read.
    req.removeAllListeners("data");
    req.removeAllListeners("readable");
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER.bytes) end();
      else idle.refresh();
    });
    req.once("end", stop);
    socket.once("close", stop);
    req.resume();
  });
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
