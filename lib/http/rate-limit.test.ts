import http from "node:http";
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { db } from "../db/client";
import { rateLimitCounters } from "../db/schema";
import { isAppError } from "../errors";
import { startWebServer, type WebServer } from "../testing/server";
import { countRequest } from "./rate-limit";

// spec: Limits > Request rates: API_RATE_LIMIT_PER_MINUTE requests to /v1/ per client address
// (IPv6 per /64) per clock minute, then 429 with Retry-After until the next minute. The counter
// lives in PostgreSQL, so web nodes on one database share it. Servers here allow 5 a minute.

const LIMIT = 5;

let proxied: WebServer; // behind a trusted proxy: 127.0.0.1 may set X-Forwarded-For
let proxied2: WebServer; // a second web node, same database and settings
let direct: WebServer; // no trusted proxies: X-Forwarded-For is ignored

beforeAll(async () => {
  const env = { ...inject("serverEnv"), API_RATE_LIMIT_PER_MINUTE: String(LIMIT) };
  [proxied, proxied2, direct] = await Promise.all([
    startWebServer({ ...env, TRUSTED_PROXY_RANGES: "127.0.0.1/32" }, inject("dataDir")),
    startWebServer({ ...env, TRUSTED_PROXY_RANGES: "127.0.0.1/32" }, inject("dataDir")),
    startWebServer(env, inject("dataDir")),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.stop(), proxied2?.stop(), direct?.stop()]);
});

type Res = { status: number; headers: http.IncomingHttpHeaders; body: unknown; receivedAt: number };

/**
 * GET /v1/instance (no credential needed). `localAddress` picks the loopback source address, so a
 * case against the direct server has a bucket of its own: 127.0.0.1 is also counted by every
 * other test file's requests to the main server, which shares this database.
 */
function get(server: WebServer, headers: Record<string, string> = {}, localAddress?: string): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.baseUrl}/v1/instance`, { headers, localAddress, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        const receivedAt = Date.now();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined, receivedAt });
      });
    });
    req.on("error", reject);
  });
}

const used = new Set<string>();
function unique(make: () => string): string {
  for (;;) {
    const v = make();
    if (!used.has(v)) {
      used.add(v);
      return v;
    }
  }
}
/** A fake client address from the benchmarking range 198.18.0.0/15. */
const fakeV4 = () => unique(() => `198.${18 + randomInt(2)}.${randomInt(256)}.${1 + randomInt(254)}`);
/** A fake /64 from 2001:db8::/32 (documentation range), as "2001:db8:xxxx:yyyy". */
const fakeV6Prefix = () => unique(() => `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`);
/** A loopback source address other than 127.0.0.1 (Linux routes all of 127.0.0.0/8 to lo). */
const loopback = () => unique(() => `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`);

/** Cases need all their requests in one clock minute: in its last 15 s, wait for the next one. */
async function awayFromMinuteEdge() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute >= 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

/** Asserts the RATE_LIMITED envelope and Retry-After: whole seconds until the next clock minute (+-1). */
function expectRateLimited(res: Res) {
  expect(res.status).toBe(429);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(res.headers["x-request-id"]).toBeTruthy();
  const body = res.body as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(["code", "message", "retryable"]);
  expect(body.error.code).toBe("RATE_LIMITED");
  expect(body.error.retryable).toBe(true);
  expect(typeof body.error.message).toBe("string");
  const header = res.headers["retry-after"];
  expect(header).toMatch(/^\d+$/);
  const retryAfter = Number(header);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const untilNextMinute = Math.ceil((60_000 - (res.receivedAt % 60_000)) / 1000);
  expect(Math.abs(retryAfter - untilNextMinute)).toBeLessThanOrEqual(1);
}

async function expectPasses(n: number, send: () => Promise<Res>) {
  for (let i = 0; i < n; i++) {
    const res = await send();
    expect(res.status, `request ${i + 1} of ${n}`).toBe(200);
  }
}

describe("rate limit per client address", () => {
  it(`lets ${LIMIT} requests a minute through and answers the next with 429 RATE_LIMITED and Retry-After`, async () => {
    await awayFromMinuteEdge();
    const xff = { "x-forwarded-for": fakeV4() };
    await expectPasses(LIMIT, () => get(proxied, xff));
    expectRateLimited(await get(proxied, xff));
    expectRateLimited(await get(proxied, xff));
    // Another client behind the same proxy is counted apart.
    expect((await get(proxied, { "x-forwarded-for": fakeV4() })).status).toBe(200);
  });

  it("counts IPv6 clients by /64: two addresses in one /64 share a bucket, another /64 does not", async () => {
    await awayFromMinuteEdge();
    const p = fakeV6Prefix();
    const a = { "x-forwarded-for": `${p}::1` };
    const b = { "x-forwarded-for": `${p}:ffff:ffff:ffff:fffe` };
    await expectPasses(3, () => get(proxied, a));
    await expectPasses(2, () => get(proxied, b));
    expectRateLimited(await get(proxied, a));
    expectRateLimited(await get(proxied, b));
    expect((await get(proxied, { "x-forwarded-for": `${fakeV6Prefix()}::1` })).status).toBe(200);
  });

  it("uses the nearest untrusted X-Forwarded-For hop: addresses a client prepends do not start a new bucket", async () => {
    await awayFromMinuteEdge();
    const client = fakeV4();
    await expectPasses(LIMIT, () => get(proxied, { "x-forwarded-for": `${fakeV4()}, ${client}` }));
    expectRateLimited(await get(proxied, { "x-forwarded-for": `${fakeV4()}, ${client}, 127.0.0.1` }));
  });

  it("ignores a client-sent x-folio-client-ip header", async () => {
    await awayFromMinuteEdge();
    // Directly connected: the socket address is the bucket, whatever the header claims.
    const from = loopback();
    await expectPasses(LIMIT, () => get(direct, { "x-folio-client-ip": fakeV4() }, from));
    expectRateLimited(await get(direct, { "x-folio-client-ip": fakeV4() }, from));
    // Behind the trusted proxy: a forged socket address would make X-Forwarded-For untrusted.
    const xff = fakeV4();
    await expectPasses(LIMIT, () => get(proxied, { "x-forwarded-for": xff, "x-folio-client-ip": fakeV4() }));
    expectRateLimited(await get(proxied, { "x-forwarded-for": xff, "x-folio-client-ip": fakeV4() }));
  });

  it("ignores X-Forwarded-For when TRUSTED_PROXY_RANGES is unset", async () => {
    await awayFromMinuteEdge();
    const from = loopback();
    await expectPasses(LIMIT, () => get(direct, { "x-forwarded-for": fakeV4() }, from));
    expectRateLimited(await get(direct, { "x-forwarded-for": fakeV4() }, from));
    // The bucket is the socket address: another source address still passes.
    expect((await get(direct, { "x-forwarded-for": fakeV4() }, loopback())).status).toBe(200);
  });

  it("shares one counter between two web nodes on one database", async () => {
    await awayFromMinuteEdge();
    const xff = { "x-forwarded-for": fakeV4() };
    await expectPasses(3, () => get(proxied, xff));
    await expectPasses(2, () => get(proxied2, xff));
    expectRateLimited(await get(proxied2, xff));
    expectRateLimited(await get(proxied, xff));
  });
});

describe("countRequest: counting far below the limit and near it", () => {
  const stored = async (bucket: string, windowStart: Date) => {
    const [row] = await db()
      .select({ count: rateLimitCounters.count })
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.bucket, bucket), eq(rateLimitCounters.windowStart, windowStart)));
    return row?.count ?? 0;
  };

  it("writes requests counted in memory to the shared table within moments", async () => {
    const bucket = `test:batch:${randomInt(1e9)}`;
    const now = new Date();
    const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    for (let i = 0; i < 10; i++) await countRequest(bucket, 1_000, now);
    await expect.poll(() => stored(bucket, windowStart), { timeout: 10_000 }).toBe(10);
  });

  it("counts in the table from a quarter of the limit on, and refuses exactly past it", async () => {
    const bucket = `test:exact:${randomInt(1e9)}`;
    const now = new Date();
    const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      outcomes.push(await countRequest(bucket, 8, now).then(() => "ok", (e) => (isAppError(e) ? e.code : "other")));
    }
    expect(outcomes).toEqual([...Array(8).fill("ok"), "RATE_LIMITED", "RATE_LIMITED"]);
    expect(await stored(bucket, windowStart)).toBe(10);
  });
});
