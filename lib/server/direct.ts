import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { sendWhole } from "../http/node";

type Handler = (req: Request) => Promise<Response>;

/**
 * Runs a route handler for a Node request without Next.js. Used by lib/server/web.ts for the
 * render hot path only: the handler is the same apiRoute the Next.js route exports, so behaviour is
 * identical; what is skipped is Next's routing and request adaptation, a measurable share of the
 * CPU per render on a 2-core machine.
 */
export async function runDirect(handler: Handler, req: IncomingMessage, res: ServerResponse, origin: string) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
  // why whole: the routes run here answer small JSON.
  // A body the handler refused unread (or gave up at its limit) is read and dropped after the answer (lingerAfterAnswer, lib/http/node.ts).
  await sendWhole(res, await handler(request));
}
