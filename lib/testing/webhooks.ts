import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a test receiver got. */
export type Received = { headers: http.IncomingHttpHeaders; body: string; at: number };

/** What the receiver answers: a status (and optional headers), decided per request. */
export type Responder = (req: Received, index: number) => { status: number; headers?: Record<string, string>; delayMs?: number };

export type Receiver = {
  url: string;
  port: number;
  received: Received[];
  /** Changes the answer from now on. */
  respond: (r: Responder) => void;
  /** Waits until at least n requests arrived, and returns them. */
  waitFor: (n: number, timeout?: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

/** A real HTTP receiver on 127.0.0.1 (a free port) that records every request; answers 200 unless told otherwise. */
export async function startReceiver(responder: Responder = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let respond = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(r);
      const a = respond(r, received.length - 1);
      const answer = () => res.writeHead(a.status, a.headers).end("ok");
      if (a.delayMs) setTimeout(answer, a.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    respond: (r) => void (respond = r),
    // why no vitest expect.poll: the Playwright journeys use this receiver too.
    waitFor: async (n, timeout = 20_000) => {
      const deadline = Date.now() + timeout;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${n} requests within ${timeout} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
