import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseIp } from "../net/addresses";
import { AppError, rateLimited } from "../errors";
import { canonicalJson, requestHash } from "../idempotency/canonical";
import { decodeCursor, encodeCursor } from "../paging";
import { addressBucket } from "./client-address";
import { toErrorResponse } from "./errors";

describe("addressBucket", () => {
  it("keeps IPv4 addresses whole", () => {
    expect(addressBucket(parseIp("198.51.100.7"))).toBe("198.51.100.7");
    expect(addressBucket(parseIp("198.51.100.8"))).not.toBe(addressBucket(parseIp("198.51.100.7")));
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(addressBucket(parseIp("::ffff:198.51.100.7"))).toBe("198.51.100.7");
  });

  it("groups IPv6 addresses by /64", () => {
    expect(addressBucket(parseIp("2001:db8:abcd:12::5"))).toBe("2001:db8:abcd:12::/64");
    expect(addressBucket(parseIp("2001:db8:abcd:12:ffff:ffff:ffff:ffff"))).toBe("2001:db8:abcd:12::/64");
    expect(addressBucket(parseIp("2001:db8:abcd:13::5"))).toBe("2001:db8:abcd:13::/64");
    expect(addressBucket(parseIp("::1"))).toBe("0:0:0:0::/64");
  });

  it("puts requests without an address in one bucket", () => {
    expect(addressBucket(null)).toBe("unknown");
  });
});

describe("clientAddress", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  /** A fresh copy of client-address and config (both cache) with the given trusted ranges. */
  async function withTrusted(ranges: string) {
    process.env.TRUSTED_PROXY_RANGES = ranges;
    // why: a fixed SECRET_KEY keeps config() from creating a key file (no I/O in unit tests).
    process.env.SECRET_KEY = Buffer.alloc(32, 7).toString("base64");
    vi.resetModules();
    const cfg = await import("../config");
    cfg.resetConfigForTests();
    const mod = await import("./client-address");
    const of = (headers: Record<string, string>) => {
      const ip = mod.clientAddress(new Headers(headers));
      return ip && mod.addressBucket(ip);
    };
    return { of, header: mod.SOCKET_ADDRESS_HEADER };
  }

  it("uses the socket address and ignores X-Forwarded-For when no proxy is trusted", async () => {
    const { of, header } = await withTrusted("");
    expect(of({ [header]: "192.0.2.10", "x-forwarded-for": "203.0.113.9" })).toBe("192.0.2.10");
    expect(of({ [header]: "::ffff:127.0.0.1", "x-forwarded-for": "203.0.113.9" })).toBe("127.0.0.1");
  });

  it("behind a trusted proxy uses the nearest X-Forwarded-For hop that is not a trusted proxy", async () => {
    const { of, header } = await withTrusted("10.0.0.0/8, 2001:db8:ffff::/48");
    expect(of({ [header]: "10.1.2.3", "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    // A client may prepend anything; only what the trusted proxies appended counts.
    expect(of({ [header]: "10.1.2.3", "x-forwarded-for": "1.1.1.1, 203.0.113.9, 10.9.9.9" })).toBe("203.0.113.9");
    expect(of({ [header]: "2001:db8:ffff::1", "x-forwarded-for": "2001:db8:1:2::3" })).toBe("2001:db8:1:2::/64");
  });

  it("matches an IPv4-mapped socket address against IPv4 ranges", async () => {
    const { of, header } = await withTrusted("127.0.0.1/32");
    expect(of({ [header]: "::ffff:127.0.0.1", "x-forwarded-for": "198.51.100.4" })).toBe("198.51.100.4");
  });

  it("ignores X-Forwarded-For from a peer outside the trusted ranges", async () => {
    const { of, header } = await withTrusted("10.0.0.0/8");
    expect(of({ [header]: "11.0.0.1", "x-forwarded-for": "203.0.113.9" })).toBe("11.0.0.1");
    expect(of({ [header]: "9.255.255.255", "x-forwarded-for": "203.0.113.9" })).toBe("9.255.255.255");
  });

  it("respects prefixes that are not a multiple of 8", async () => {
    const { of, header } = await withTrusted("192.168.4.0/22");
    expect(of({ [header]: "192.168.7.255", "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    expect(of({ [header]: "192.168.8.0", "x-forwarded-for": "203.0.113.9" })).toBe("192.168.8.0");
  });

  it("stops at an unparsable hop instead of trusting what lies before it", async () => {
    const { of, header } = await withTrusted("10.0.0.0/8");
    expect(of({ [header]: "10.1.2.3", "x-forwarded-for": "203.0.113.9, not-an-ip" })).toBe("10.1.2.3");
  });

  it("uses the farthest hop when every hop is a trusted proxy", async () => {
    const { of, header } = await withTrusted("10.0.0.0/8");
    expect(of({ [header]: "10.1.2.3", "x-forwarded-for": "10.0.0.5, 10.0.0.6" })).toBe("10.0.0.5");
  });

  it("has no address without the socket header", async () => {
    const { of } = await withTrusted("10.0.0.0/8");
    expect(of({ "x-forwarded-for": "203.0.113.9" })).toBeNull();
  });
});

describe("toErrorResponse", () => {
  function memoryLogger() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
        cb();
      },
    });
    return { logger: pino({ level: "info" }, stream), lines };
  }

  it("answers an AppError with its status and the envelope, and logs nothing", async () => {
    const { logger, lines } = memoryLogger();
    const err = new AppError("CONFLICT", "This key was already rotated", { details: [{ path: "id", message: "already rotated" }] });
    const res = toErrorResponse(err, "req_1", logger);
    expect(res.status).toBe(409);
    expect(res.headers.get("x-request-id")).toBe("req_1");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: { code: "CONFLICT", message: "This key was already rotated", retryable: false, details: [{ path: "id", message: "already rotated" }] },
    });
    expect(lines).toEqual([]);
  });

  it("leaves out empty details and keeps a status and headers the error sets", async () => {
    const { logger } = memoryLogger();
    const tooBig = toErrorResponse(new AppError("LIMIT_EXCEEDED", "too big", { status: 413, details: [] }), "req_2", logger);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ error: { code: "LIMIT_EXCEEDED", message: "too big", retryable: false } });
    const limited = toErrorResponse(rateLimited("slow down", 17), "req_3", logger);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("17");
    expect(((await limited.json()) as { error: { retryable: boolean } }).error.retryable).toBe(true);
  });

  it("answers a ZodError as 400 BAD_REQUEST with paths", async () => {
    const { logger } = memoryLogger();
    const r = z.strictObject({ a: z.string() }).safeParse({ a: 1 });
    if (r.success) throw new Error("expected a failure");
    const res = toErrorResponse(r.error, "req_4", logger);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.details.map((d) => d.path)).toEqual(["a"]);
  });

  it("answers any other error as 500 INTERNAL without internals, and logs it at error level", async () => {
    const { logger, lines } = memoryLogger();
    const secret = "connect ECONNREFUSED 10.1.2.3:5432 password=hunter2";
    const res = toErrorResponse(new Error(secret), "req_5", logger);
    expect(res.status).toBe(500);
    expect(res.headers.get("x-request-id")).toBe("req_5");
    const text = await res.text();
    const body = JSON.parse(text) as { error: Record<string, unknown> };
    expect(Object.keys(body.error).sort()).toEqual(["code", "message", "retryable"]);
    expect(body.error.code).toBe("INTERNAL");
    expect(body.error.retryable).toBe(false);
    expect(body.error.message).toContain("req_5");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("ECONNREFUSED");
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(50);
    expect(JSON.stringify(lines[0])).toContain("hunter2");
  });

  it("names the request id in the log line of an unknown error", () => {
    const { logger, lines } = memoryLogger();
    toErrorResponse(new Error("boom"), "req_6", logger);
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0])).toContain("req_6");
  });

  it("answers thrown non-Error values as INTERNAL too", async () => {
    const { logger } = memoryLogger();
    const res = toErrorResponse("a string", "req_7", logger);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("INTERNAL");
  });
});

describe("canonicalJson", () => {
  it("is independent of key order at every level", () => {
    const a = { b: 1, a: { d: [3, { y: 1, x: 2 }], c: null }, e: "s" };
    const b = { e: "s", a: { c: null, d: [3, { x: 2, y: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"c":null,"d":[3,{"x":2,"y":1}]},"b":1,"e":"s"}');
    expect(requestHash("POST", "/v1/renders", a)).toBe(requestHash("POST", "/v1/renders", b));
  });

  it("tells different requests apart", () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: "1" })).not.toBe(canonicalJson({ a: 1 }));
    expect(requestHash("POST", "/v1/renders", { a: 1 })).not.toBe(requestHash("POST", "/v1/renders", { a: 2 }));
    expect(requestHash("POST", "/v1/renders", { a: 1 })).not.toBe(requestHash("POST", "/v1/renders/batch", { a: 1 }));
  });
});

describe("cursors", () => {
  it("round-trips a cursor", () => {
    const c = { createdAt: new Date("2024-05-06T07:08:09.123Z"), id: "aud_abc123" };
    const text = encodeCursor(c);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(c);
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  const b64 = (s: string) => Buffer.from(s).toString("base64url");
  it.each([
    ["garbage", "!!!not base64!!!"],
    ["empty", ""],
    ["not JSON", b64("hello")],
    ["wrong shape", b64("[1,2]")],
    ["object", b64('{"createdAt":"2024-01-01T00:00:00Z","id":"x"}')],
    ["bad date", b64('["yesterday","aud_x"]')],
    ["three items", b64('["2024-01-01T00:00:00Z","aud_x","more"]')],
    ["id too long", b64(JSON.stringify(["2024-01-01T00:00:00Z", "x".repeat(129)]))],
  ])("refuses a %s cursor with BAD_REQUEST naming cursor", (_label, cursor) => {
    let caught: unknown;
    try {
      decodeCursor(cursor);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppError);
    const e = caught as AppError;
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.status).toBe(400);
    expect(e.details).toEqual([{ path: "query.cursor", message: expect.any(String) }]);
  });
});
