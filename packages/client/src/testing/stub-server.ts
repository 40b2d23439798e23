// A real HTTP server on 127.0.0.1 that answers what a test tells it and records every request as
// it arrived: the client's retries, headers and bodies seen from the far side of a socket.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Seen = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: string };
export type Answer = { status: number; headers?: Record<string, string>; json?: unknown; bytes?: Uint8Array } | "drop";

export type StubServer = { url: string; seen: Seen[]; close: () => Promise<void> };

/** Starts a server whose `answer` is called with each request and how many came before it. */
export async function startStub(answer: (req: Seen, n: number) => Answer | Promise<Answer>): Promise<StubServer> {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://stub");
    const entry: Seen = { method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
    seen.push(entry);
    const a = await answer(entry, seen.length - 1);
    // why destroy: the request arrived and may have been carried out, but its answer never leaves.
    if (a === "drop") return void req.socket.destroy();
    // why close each connection: a kept-alive socket that the "drop" case ends could make the
    // client's HTTP stack resend on its own, and the counts would no longer be the client's.
    const headers: Record<string, string> = { connection: "close", ...a.headers };
    if (a.json !== undefined) {
      res.writeHead(a.status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(a.json));
    } else {
      res.writeHead(a.status, headers);
      res.end(a.bytes === undefined ? undefined : Buffer.from(a.bytes));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The error envelope Folio answers (spec: Errors). */
export const errorBody = (code: string, message: string, retryable: boolean) => ({ error: { code, message, retryable } });

/** A render as Folio answers it, in a given state. */
export const renderBody = (id: string, state: string, more: Record<string, unknown> = {}) => ({
  id,
  state,
  test: false,
  source: "document",
  format: "pdf",
  createdAt: "2026-11-27T04:00:00.000Z",
  updatedAt: "2026-11-27T04:00:00.000Z",
  ...more,
});
