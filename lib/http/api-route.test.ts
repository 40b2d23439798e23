import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../testing/factories";
import { api, expectError, type ApiOptions, type ApiResponse } from "../testing/http";

// The wrapper's steps, seen from outside: POST /v1/api-keys (console session, JSON body, 1 MiB
// limit) stands for an ordinary endpoint with a body, GET /v1/audit-events for a paged query.

const MiB = 1024 * 1024;

/** One request through the real server; every answer, success or error, carries x-request-id. */
async function call(path: string, opts: ApiOptions = {}): Promise<ApiResponse> {
  const res = await api(path, opts);
  expect(res.headers.get("x-request-id") ?? `(no x-request-id; status ${res.status}, ${res.text.slice(0, 60)})`, `x-request-id on ${opts.method ?? "GET"} ${path}`).toMatch(/^[\w.:-]{1,128}$/);
  return res;
}

/** The spec's envelope: exactly code, message, retryable (+ details when given); nothing else. */
function expectEnvelope(res: ApiResponse, status: number, code: string, retryable = false) {
  const e = expectError(res, status, code);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(res.body as object)).toEqual(["error"]);
  const keys = Object.keys(e).sort();
  expect(keys).toEqual(e.details === undefined ? ["code", "message", "retryable"] : ["code", "details", "message", "retryable"]);
  expect(e.message.length).toBeGreaterThan(0);
  expect(e.retryable).toBe(retryable);
  if (e.details !== undefined) {
    expect(Array.isArray(e.details)).toBe(true);
    for (const d of e.details as Record<string, unknown>[]) {
      expect(typeof d.message).toBe("string");
      for (const k of Object.keys(d)) expect(["path", "message"]).toContain(k);
    }
  }
  return e as typeof e & { details?: { path?: string; message: string }[] };
}

const paths = (e: { details?: { path?: string }[] }) => (e.details ?? []).map((d) => d.path);

type RawResult = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * A request written by hand with node:http: the body is sent as the given chunks and the request
 * is ended only when `end` is true, so a test can see whether the server answers before the body
 * is complete. Resolves with the first complete response, or rejects after `timeoutMs`.
 */
function rawRequest(
  path: string,
  opts: { method?: string; headers: Record<string, string | number>; chunks?: Buffer[]; end: boolean; timeoutMs?: number },
): Promise<RawResult> {
  const url = new URL(path, inject("baseUrl"));
  return new Promise<RawResult>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      req.destroy();
    };
    const req = http.request(url, { method: opts.method ?? "POST", headers: opts.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8") })));
      res.on("error", (err) => finish(() => reject(err)));
    });
    // why: once the server has answered and stopped reading, writes may fail with EPIPE/ECONNRESET.
    req.on("error", (err) => finish(() => reject(err)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`no response within ${opts.timeoutMs ?? 5000} ms: the server waited for the whole body`))),
      opts.timeoutMs ?? 5000,
    );
    for (const c of opts.chunks ?? []) req.write(c);
    if (opts.end) req.end();
  });
}

function rawEnvelope(r: RawResult, status: number, code: string) {
  expect(r.headers["x-request-id"]).toMatch(/^[\w.:-]{1,128}$/);
  const headers = new Headers();
  for (const [k, v] of Object.entries(r.headers)) if (typeof v === "string") headers.set(k, v);
  return expectEnvelope({ status: r.status, headers, body: JSON.parse(r.body), text: r.body }, status, code);
}

const validKey = { name: "wrapper test", scopes: ["audit:read"] };

/** The Origin the console's browser sends with its session cookie on an unsafe request. */
const consoleOrigin = () => new URL(inject("baseUrl")).origin;

describe("apiRoute: body handling (POST /v1/api-keys)", () => {
  // why one workspace here: every request below is refused before the handler runs, so none
  // changes anything that another case could see; signing in once keeps the file fast.
  let w: TestWorkspace;
  let cookie: string;
  beforeAll(async () => {
    w = await createTestWorkspace();
    cookie = (await w.signIn("owner")).cookie;
  });

  it("accepts application/json with a charset parameter (the happy path the refusals are measured against)", async () => {
    const res = await call("/v1/api-keys", { cookie, body: validKey, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "wrapper test", scopes: ["audit:read"], secret: expect.stringMatching(/^folio_/) });
  });

  it("answers 415 BAD_REQUEST for content-type text/plain", async () => {
    const res = await call("/v1/api-keys", { cookie, body: JSON.stringify(validKey), headers: { "content-type": "text/plain" } });
    const e = expectEnvelope(res, 415, "BAD_REQUEST");
    expect(e.message).toContain("application/json");
  });

  it("answers 415 BAD_REQUEST when content-type is missing", async () => {
    const body = Buffer.from(JSON.stringify(validKey));
    const r = await rawRequest("/v1/api-keys", { headers: { cookie, origin: consoleOrigin(), "content-length": body.length }, chunks: [body], end: true });
    rawEnvelope(r, 415, "BAD_REQUEST");
  });

  it("answers 413 LIMIT_EXCEEDED for Content-Length 1 MiB + 1 before the body has arrived", async () => {
    // Only 64 KiB of the announced 1 MiB + 1 are sent and the request is never ended: a server
    // that read the body before checking its size would never answer.
    const r = await rawRequest("/v1/api-keys", {
      headers: { cookie, origin: consoleOrigin(), "content-type": "application/json", "content-length": MiB + 1 },
      chunks: [Buffer.from(`{"name":"${"a".repeat(64 * 1024 - 9)}`)],
      end: false,
      timeoutMs: 5000,
    });
    const e = rawEnvelope(r, 413, "LIMIT_EXCEEDED");
    expect(e.message).toContain("1 MiB");
  });

  it("answers 413 LIMIT_EXCEEDED for a chunked body that streams past 1 MiB, without waiting for its end", async () => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const chunks = [Buffer.from('{"name":"'), ...Array.from({ length: MiB / chunk.length + 1 }, () => chunk)];
    const r = await rawRequest("/v1/api-keys", {
      headers: { cookie, origin: consoleOrigin(), "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks,
      end: false,
      timeoutMs: 5000,
    });
    rawEnvelope(r, 413, "LIMIT_EXCEEDED");
  });

  it("does not refuse a body of exactly 1 MiB for its size", async () => {
    const head = '{"name":"k","scopes":["audit:read"],"pad":"';
    const tail = '"}';
    const text = head + "a".repeat(MiB - head.length - tail.length) + tail;
    expect(Buffer.byteLength(text)).toBe(MiB);
    const res = await call("/v1/api-keys", { cookie, body: text });
    // The size passes; the unknown field "pad" is what is refused.
    const e = expectEnvelope(res, 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["pad"]);
  });

  it("does not refuse a chunked body of exactly 1 MiB for its size", async () => {
    const head = '{"name":"k","scopes":["audit:read"],"pad":"';
    const tail = '"}';
    const text = Buffer.from(head + "a".repeat(MiB - head.length - tail.length) + tail);
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length; i += 100_000) chunks.push(text.subarray(i, i + 100_000));
    const r = await rawRequest("/v1/api-keys", {
      headers: { cookie, origin: consoleOrigin(), "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks,
      end: true,
    });
    expect(paths(rawEnvelope(r, 400, "BAD_REQUEST"))).toEqual(["pad"]);
  });

  it("answers 400 for a body that is not JSON", async () => {
    expectEnvelope(await call("/v1/api-keys", { cookie, body: '{"name": "k", ' }), 400, "BAD_REQUEST");
    expectEnvelope(await call("/v1/api-keys", { method: "POST", cookie, body: "", headers: { "content-type": "application/json" } }), 400, "BAD_REQUEST");
  });

  it("answers 400 naming the field for a NUL character in a string value", async () => {
    const res = await call("/v1/api-keys", { cookie, body: '{"name":"a\\u0000b","scopes":["audit:read"]}' });
    const e = expectEnvelope(res, 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["name"]);
    expect(e.message).toContain("name");
  });

  it("answers 400 naming the nested path for a NUL character deep in the body", async () => {
    const res = await call("/v1/api-keys", { cookie, body: '{"name":"k","scopes":["audit:read"],"meta":{"list":[1,"x\\u0000"]}}' });
    expect(paths(expectEnvelope(res, 400, "BAD_REQUEST"))).toEqual(["meta.list.1"]);
  });

  it("answers 400 for a body nested deeper than 256 levels, and accepts 200 levels", async () => {
    const nested = (depth: number) => `{"name":"k","scopes":["audit:read"],"meta":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const deep = await call("/v1/api-keys", { cookie, body: nested(500_000) });
    const e = expectEnvelope(deep, 400, "BAD_REQUEST");
    expect(e.message).toContain("deeper than 256 levels");
    expect(paths(e)[0]).toMatch(/^meta\.0\.0/);
    // Within the depth, the nesting reaches the schema, which refuses the unknown field as usual.
    expect(paths(expectEnvelope(await call("/v1/api-keys", { cookie, body: nested(200) }), 400, "BAD_REQUEST"))).toEqual(["meta"]);
  });

  it("answers 400 naming the field for an unpaired surrogate", async () => {
    const res = await call("/v1/api-keys", { cookie, body: '{"name":"a\\ud800b","scopes":["audit:read"]}' });
    expect(paths(expectEnvelope(res, 400, "BAD_REQUEST"))).toEqual(["name"]);
    const low = await call("/v1/api-keys", { cookie, body: '{"name":"\\udc00","scopes":["audit:read"]}' });
    expect(paths(expectEnvelope(low, 400, "BAD_REQUEST"))).toEqual(["name"]);
  });

  it("accepts a correctly paired surrogate (an emoji written as \\ud83d\\ude00)", async () => {
    const res = await call("/v1/api-keys", { cookie, body: '{"name":"smile \\ud83d\\ude00","scopes":["audit:read"]}' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("smile \u{1F600}");
  });

  it("answers 400 with details path bogus for an unknown body field", async () => {
    const res = await call("/v1/api-keys", { cookie, body: { ...validKey, bogus: 1 } });
    const e = expectEnvelope(res, 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["bogus"]);
    expect(e.message).toContain("bogus");
  });

  it("names each unknown field and each bad value, with array indexes as numbers", async () => {
    const res = await call("/v1/api-keys", { cookie, body: { name: "k", scopes: ["audit:read", "nope"], bogus: 1, other: { x: 1 } } });
    const e = expectEnvelope(res, 400, "BAD_REQUEST");
    expect(paths(e).sort()).toEqual(["bogus", "other", "scopes.1"]);
  });

  it("answers 400 for a body that is JSON but not an object", async () => {
    expectEnvelope(await call("/v1/api-keys", { cookie, body: "[1,2]" }), 400, "BAD_REQUEST");
    expectEnvelope(await call("/v1/api-keys", { cookie, body: "null" }), 400, "BAD_REQUEST");
  });
});

describe("apiRoute: query handling (GET /v1/audit-events)", () => {
  let w: TestWorkspace;
  beforeAll(async () => {
    w = await createTestWorkspace();
  });

  it("answers a valid page (the baseline for the refusals below)", async () => {
    const res = await call("/v1/audit-events?limit=100", { key: w.key });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.items)).toBe(true);
  });

  it("answers 400 with details path query.bogus for an unknown query parameter", async () => {
    const e = expectEnvelope(await call("/v1/audit-events?bogus=1", { key: w.key }), 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["query.bogus"]);
  });

  it("answers 400 for a repeated query parameter", async () => {
    const e = expectEnvelope(await call("/v1/audit-events?limit=5&limit=6", { key: w.key }), 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["query.limit"]);
  });

  it.each(["0", "101", "-1", "2.5", "ten"])("answers 400 naming query.limit for limit=%s", async (limit) => {
    const e = expectEnvelope(await call(`/v1/audit-events?limit=${limit}`, { key: w.key }), 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["query.limit"]);
  });

  it("answers 400 naming cursor for a cursor the list did not return", async () => {
    for (const cursor of ["garbage", Buffer.from('["not a date","x"]').toString("base64url"), "x".repeat(600)]) {
      const e = expectEnvelope(await call(`/v1/audit-events?cursor=${cursor}`, { key: w.key }), 400, "BAD_REQUEST");
      expect(paths(e)).toHaveLength(1);
      expect(paths(e)[0]).toMatch(/(^|\.)cursor$/);
      expect(e.message).toContain("cursor");
    }
  });
});

describe("apiRoute: unknown endpoints", () => {
  it.each(["GET", "POST", "PUT", "PATCH", "DELETE"])("answers %s to an unknown /v1 path with the 404 envelope", async (method) => {
    const res = await call("/v1/no-such-thing/abc?x=1", {
      method,
      body: method === "GET" || method === "DELETE" ? undefined : { anything: true },
    });
    const e = expectEnvelope(res, 404, "NOT_FOUND");
    expect(res.text).not.toMatch(/<html/i);
    expect(e.message).toContain("/v1/no-such-thing/abc");
  });

  it("answers HEAD to an unknown /v1 path with 404", async () => {
    const res = await fetch(`${inject("baseUrl")}/v1/no-such-thing`, { method: "HEAD" });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers OPTIONS to an unknown /v1 path with the 404 envelope", async () => {
    expectEnvelope(await call("/v1/no-such-thing", { method: "OPTIONS" }), 404, "NOT_FOUND");
  });

  it("answers GET /v1 itself (no endpoint there) with the 404 envelope, not an HTML page", async () => {
    expectEnvelope(await call("/v1"), 404, "NOT_FOUND");
    expectEnvelope(await call("/v1/"), 404, "NOT_FOUND");
  });

  it("answers the 404 envelope below a known resource", async () => {
    expectEnvelope(await call("/v1/api-keys/key_x/no-such-action", { method: "POST" }), 404, "NOT_FOUND");
  });

  it.each([
    ["PUT", "/v1/instance"],
    ["DELETE", "/v1/instance"],
    ["PATCH", "/v1/renders"],
    ["DELETE", "/v1/audit-events"],
    ["POST", "/v1/templates/schema"],
    ["PUT", "/v1/renders/rnd_x/cancel"],
    // A named segment wins over [id], as in Next's routing, although templates/[id] has these methods.
    ["PATCH", "/v1/templates/schema"],
    ["DELETE", "/v1/templates/delete"],
  ])("answers %s to %s, a path whose route lacks that method, with the 404 envelope naming the endpoint", async (method, path) => {
    const res = await call(path, { method, body: method === "DELETE" ? undefined : { anything: true } });
    const e = expectEnvelope(res, 404, "NOT_FOUND");
    expect(e.message).toBe(`No endpoint ${method} ${path}`);
  });

  it("still answers the methods a route has, and HEAD for a GET route", async () => {
    expect((await call("/v1/instance")).status).toBe(200);
    expect((await fetch(`${inject("baseUrl")}/v1/instance`, { method: "HEAD" })).status).toBe(200);
    const w = await createTestWorkspace();
    expectEnvelope(await call("/v1/templates/tpl_missing", { method: "PATCH", key: w.key, body: { name: "x" } }), 404, "NOT_FOUND");
    expect((await call("/v1/templates/schema", { key: w.key })).status).toBe(200);
  });

  it.each(["/v1/instance", "/v1/no-such-thing"])("answers TRACE %s (a method no route has) with the 404 envelope", async (path) => {
    const r = await rawRequest(path, { method: "TRACE", headers: {}, end: true });
    expect(rawEnvelope(r, 404, "NOT_FOUND").message).toBe(`No endpoint TRACE ${path}`);
  });
});

describe("paths whose percent-encoding does not decode", () => {
  it.each([
    ["GET", "/v1/renders/%E0"],
    ["POST", "/v1/renders/%E0/cancel"],
    ["GET", "/v1/templates/abc%C0%AF"],
    ["GET", "/v1/%E0"],
    ["PUT", "/v1/%zz/x"],
    ["GET", "/api/auth/%E0"],
  ])("answer %s %s with 400 BAD_REQUEST in the envelope, never 500", async (method, path) => {
    const w = await createTestWorkspace();
    const res = await call(path, { method, key: w.key, body: method === "GET" ? undefined : {} });
    expect(expectEnvelope(res, 400, "BAD_REQUEST").message).toContain("percent-encoded");
  });
});

describe("a NUL in the path or query", () => {
  // spec: Errors: BAD_REQUEST, never INTERNAL; PostgreSQL refuses NUL in text, so it must not reach a query.
  it.each([
    ["GET", "/v1/templates/abc%00def"],
    ["GET", "/v1/renders?cursor=%00"],
    ["GET", "/v1/audit-events?limit=1%00"],
    ["GET", "/v1/audit-events?actorId=key_%00"],
    ["GET", "/v1/renders?batchId=bat_%00"],
    ["POST", "/v1/renders?x=%00"],
    ["GET", "/v1/storage/downloads/abc%00"],
    ["GET", "/templates/abc%00"],
    ["GET", "/templates?q=%00"],
    ["GET", "/sign-in?next=%00"],
  ])("answers %s %s with 400 BAD_REQUEST in the envelope, never 500", async (method, path) => {
    const w = await createTestWorkspace();
    const res = await call(path, { method, key: w.key, body: method === "GET" ? undefined : {} });
    expect(expectEnvelope(res, 400, "BAD_REQUEST").message).toContain("NUL");
  });
});

describe("the console cannot be framed by another site", () => {
  // docs/api.md, Console pages: every answer outside /v1 says so twice, for old browsers and new.
  it.each([
    ["the sign-in page", "/sign-in", false],
    ["a console page, signed in", "/templates", true],
    ["a console page, signed out (the redirect to sign-in)", "/templates", false],
    ["a console page that does not exist", "/no-such-page", true],
    ["the forgot-password page", "/forgot-password", false],
  ])("%s carries frame-ancestors 'none' and X-Frame-Options DENY", async (_name, path, signedIn) => {
    const cookie = signedIn ? (await (await createTestWorkspace()).signIn("owner")).cookie : undefined;
    const res = await fetch(`${inject("baseUrl")}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
    expect(res.status, path).toBeLessThan(500);
    expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("leaves /v1 answers frameable (a download link's PDF may be shown in the caller's own page)", async () => {
    const res = await fetch(`${inject("baseUrl")}/v1/instance`);
    expect(res.headers.get("x-frame-options")).toBeNull();
  });
});

describe("every path of the web server answers through the same steps", () => {
  /** The web server's log lines of one request id (the log file global-setup gave the server). */
  const logLines = (requestId: string) => {
    const file = path.join(inject("dataDir"), `web-${new URL(inject("baseUrl")).port}.log`);
    return fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.includes(`"requestId":"${requestId}"`))
      .map((l) => JSON.parse(l) as { msg: string; method?: string; path?: string; status?: number; durationMs?: number });
  };

  it.each([
    ["an API route", "GET", "/v1/instance", 200],
    ["an API route without Next.js", "POST", "/v1/renders", 401],
    ["a download link", "GET", "/v1/storage/downloads/garbage", 403],
    ["an unknown path", "GET", "/v1/no-such-thing", 404],
    ["a method the path lacks", "PUT", "/v1/instance", 404],
  ])("%s: the caller's request id on the answer and one log line with method, path, status and duration", async (_name, method, path, status) => {
    const requestId = `trace.steps-${crypto.randomUUID()}`;
    const res = await call(path, { method, headers: { "x-request-id": requestId }, body: method === "GET" ? undefined : {} });
    expect(res.status).toBe(status);
    expect(res.headers.get("x-request-id")).toBe(requestId);
    await expect.poll(() => logLines(requestId).filter((l) => l.msg === "request"), { timeout: 5000 }).toHaveLength(1);
    const [line] = logLines(requestId).filter((l) => l.msg === "request");
    expect(line).toMatchObject({ method, status, durationMs: expect.any(Number) });
    expect(path.startsWith(line!.path!)).toBe(true); // downloads log the prefix, never the token
  });
});

describe("apiRoute: the envelope of each status it produces", () => {
  it("400 BAD_REQUEST has details; retryable false", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const e = expectEnvelope(await call("/v1/api-keys", { cookie, body: { scopes: ["audit:read"] } }), 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["name"]);
  });

  it("401 UNAUTHORIZED without a key or session", async () => {
    expectEnvelope(await call("/v1/audit-events"), 401, "UNAUTHORIZED");
    expectEnvelope(await call("/v1/api-keys", { body: validKey }), 401, "UNAUTHORIZED");
    expectEnvelope(await call("/v1/audit-events", { key: `folio_${"x".repeat(40)}` }), 401, "UNAUTHORIZED");
  });

  it("403 FORBIDDEN for an API key on a console-only action and for a missing scope", async () => {
    const w = await createTestWorkspace();
    expectEnvelope(await call("/v1/api-keys", { key: w.key, body: validKey }), 403, "FORBIDDEN");
    const narrow = await w.newKey(["render:read"]);
    const e = expectEnvelope(await call("/v1/audit-events", { key: narrow.secret }), 403, "FORBIDDEN");
    expect(e.message).toContain("audit:read");
  });

  it("404 NOT_FOUND for an unknown key id", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    expectEnvelope(await call("/v1/api-keys/key_doesnotexist/rotate", { method: "POST", cookie }), 404, "NOT_FOUND");
  });

  it("409 CONFLICT for rotating the same key twice", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const made = await call("/v1/api-keys", { cookie, body: validKey });
    expect(made.status).toBe(201);
    const first = await call(`/v1/api-keys/${made.body.id}/rotate`, { method: "POST", cookie });
    expect(first.status).toBe(201);
    const again = await call(`/v1/api-keys/${made.body.id}/rotate`, { method: "POST", cookie });
    expectEnvelope(again, 409, "CONFLICT");
  });

  it("413 LIMIT_EXCEEDED and 415 BAD_REQUEST (retryable false, no other keys)", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const big = '{"name":"' + "a".repeat(MiB) + '"}';
    expectEnvelope(await call("/v1/api-keys", { cookie, body: big }), 413, "LIMIT_EXCEEDED");
    expectEnvelope(await call("/v1/api-keys", { cookie, body: "{}", headers: { "content-type": "application/xml" } }), 415, "BAD_REQUEST");
  });

  // 429 RATE_LIMITED (retryable true, Retry-After) needs a server with a small limit: see rate-limit.test.ts.

  it("echoes a well-formed x-request-id on errors and replaces a malformed one", async () => {
    const echoed = await call("/v1/audit-events", { headers: { "x-request-id": "trace.abc-123" } });
    expect(echoed.status).toBe(401);
    expect(echoed.headers.get("x-request-id")).toBe("trace.abc-123");
    const replaced = await call("/v1/audit-events", { headers: { "x-request-id": "bad id <script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it.each([
    ["an unknown path", "GET", "/v1/no-such-thing"],
    ["a method the path lacks", "PUT", "/v1/instance"],
  ])("echoes a well-formed x-request-id on the 404 for %s", async (_name, method, path) => {
    const res = await call(path, { method, headers: { "x-request-id": "trace.404-1" }, body: method === "GET" ? undefined : {} });
    expectEnvelope(res, 404, "NOT_FOUND");
    expect(res.headers.get("x-request-id")).toBe("trace.404-1");
  });
});
