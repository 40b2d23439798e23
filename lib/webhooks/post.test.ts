/**
 * postOnce against real HTTP receivers on loopback: connections are kept between POSTs to the
 * same receiver (a burst of deliveries does not open one per event), and a kept connection the
 * receiver has closed never costs an attempt. sendSigned tries the host's checked addresses in
 * turn.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { seal } from "../crypto";
import type { WebhookEndpointRow } from "../db/schema";
import { postOnce, SECRET_PURPOSE, sendSigned } from "./deliver";
import { newWebhookSecret } from "./sign";

type Receiver = { url: URL; connections: number; posts: number; server: http.Server };
const open: http.Server[] = [];

async function receiver(opts: { keepAliveTimeout?: number; answer?: (res: http.ServerResponse) => void } = {}): Promise<Receiver> {
  const r = { connections: 0, posts: 0 } as Receiver;
  r.server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      r.posts++;
      if (opts.answer) opts.answer(res);
      else res.writeHead(204).end();
    });
  });
  if (opts.keepAliveTimeout !== undefined) r.server.keepAliveTimeout = opts.keepAliveTimeout;
  r.server.on("connection", () => r.connections++);
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.url = new URL(`http://localhost:${(r.server.address() as AddressInfo).port}/hook`);
  open.push(r.server);
  return r;
}

afterEach(async () => {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const post = (r: Receiver, body = '{"id":"evt_1"}') => postOnce(r.url, "127.0.0.1", { "content-type": "application/json" }, body);

describe("postOnce", () => {
  it("sends consecutive POSTs to one receiver over one kept connection", async () => {
    const r = await receiver();
    for (let i = 0; i < 5; i++) expect(await post(r)).toEqual({ ok: true, statusCode: 204 });
    expect(r.posts).toBe(5);
    expect(r.connections).toBe(1);
  });

  it("keeps the connection after an answer with a short body, and drops it after a long one", async () => {
    const r = await receiver({ answer: (res) => res.writeHead(500, { "content-type": "text/plain" }).end("x".repeat(200_000)) });
    expect(await post(r)).toEqual({ ok: false, statusCode: 500, error: "The endpoint answered HTTP 500" });
    expect(await post(r)).toMatchObject({ ok: false, statusCode: 500 });
    expect(r.connections).toBe(2);
    const short = await receiver({ answer: (res) => res.writeHead(200).end("ok") });
    expect(await post(short)).toEqual({ ok: true, statusCode: 200 });
    expect(await post(short)).toEqual({ ok: true, statusCode: 200 });
    expect(short.connections).toBe(1);
  });

  it("succeeds when the receiver closed the kept connection meanwhile", async () => {
    const r = await receiver({ keepAliveTimeout: 30 });
    expect(await post(r)).toEqual({ ok: true, statusCode: 204 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await post(r)).toEqual({ ok: true, statusCode: 204 });
    expect(r.posts).toBe(2);
    expect(r.connections).toBe(2);
  });

  it("sends again on a new connection when a kept one is reset as the POST goes out", async () => {
    // The receiver answers, then drops the connection without a word the moment the next request arrives on it.
    let served = 0;
    const r = await receiver();
    r.server.removeAllListeners("request");
    r.server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      served++;
      if (served === 2) return req.socket.resetAndDestroy();
      req.resume();
      req.on("end", () => {
        r.posts++;
        res.writeHead(204).end();
      });
    });
    expect(await post(r)).toEqual({ ok: true, statusCode: 204 });
    expect(await post(r)).toEqual({ ok: true, statusCode: 204 });
    expect(r.posts).toBe(2);
    expect(r.connections).toBe(2);
  });
});

describe("sendSigned", () => {
  /** An endpoint row as the database holds it, at `url`, with a fresh secret. */
  const endpointAt = (url: string) =>
    ({ url, secretSealed: seal(SECRET_PURPOSE, Buffer.from(newWebhookSecret())), previousSecretSealed: null, previousSecretExpiresAt: null }) as WebhookEndpointRow;

  it("tries the host's checked addresses in turn: one that refuses the connection, then the receiver's", async () => {
    const r = await receiver();
    const port = (r.server.address() as AddressInfo).port;
    // 127.0.0.2 and ::1 refuse: the receiver listens on 127.0.0.1 only.
    const endpoint = endpointAt(`http://hooks.example.test:${port}/hook`);
    const outcome = await sendSigned(endpoint, "msg_1", '{"id":"evt_1"}', { resolve: async () => ["::1", "127.0.0.2", "127.0.0.1"] });
    expect(outcome).toEqual({ ok: true, statusCode: 204 });
    expect(r.posts).toBe(1);
  });

  it("answers the last address's connection error when none can be reached, and never tries an address the check refused", async () => {
    const r = await receiver();
    const port = (r.server.address() as AddressInfo).port;
    const endpoint = endpointAt(`http://hooks.example.test:${port}/hook`);
    expect(await sendSigned(endpoint, "msg_2", "{}", { resolve: async () => ["127.0.0.2", "127.0.0.3"] })).toEqual({
      ok: false,
      error: "The request failed with connection error ECONNREFUSED",
    });
    // One address the rule refuses (even with private networks allowed) refuses the URL: the receiver's address is not tried.
    expect(await sendSigned(endpoint, "msg_3", "{}", { resolve: async () => ["169.254.169.254", "127.0.0.1"] })).toEqual({
      ok: false,
      error: "The URL is no longer an allowed destination: it host hooks.example.test resolves to a cloud metadata address (169.254.169.254)",
    });
    expect(r.posts).toBe(0);
  });
});
