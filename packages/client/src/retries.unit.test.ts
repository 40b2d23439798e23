/**
 * The client's retries against a real HTTP server on 127.0.0.1 (src/testing/stub-server.ts): every
 * POST that takes an Idempotency-Key carries one key, the same on each attempt; a POST that cannot
 * take one is never sent twice; GETs are retried; files come back as bytes; the User-Agent; and a
 * wait that gives up says how long it waited.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Folio, FolioError } from "./index";
import { errorBody, renderBody, startStub, type Answer, type Seen, type StubServer } from "./testing/stub-server";
import { VERSION } from "./version";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// why Retry-After 0: the client waits what the server says, so a retry costs no test time.
const unavailable: Answer = { status: 503, headers: { "retry-after": "0" }, json: errorBody("INTERNAL", "The database does not answer", true) };
const pdf = new TextEncoder().encode("%PDF-1.7\n%stub\n");

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function serve(answer: (req: Seen, n: number) => Answer | Promise<Answer>) {
  stub = await startStub(answer);
  return { folio: new Folio({ apiKey: "folio_test", baseUrl: stub.url }), seen: stub.seen };
}

const keysOf = (seen: Seen[]) => seen.map((s) => s.headers["idempotency-key"]);

describe("POSTs that take an Idempotency-Key", () => {
  it("renders.create sends one generated key, the same on every attempt after a 503", async () => {
    const { folio, seen } = await serve((_, n) => (n < 2 ? unavailable : { status: 202, json: renderBody("rnd_1", "queued") }));
    const r = await folio.renders.create({ document: { html: "<p>once</p>" } });
    expect(r).toMatchObject({ id: "rnd_1", state: "queued" });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(Array(3).fill("POST /v1/renders"));
    const keys = keysOf(seen);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
    // Another call is another request: a key of its own.
    await folio.renders.create({ document: { html: "<p>twice</p>" } });
    expect(keysOf(seen)[3]).toMatch(UUID);
    expect(keysOf(seen)[3]).not.toBe(keys[0]);
  });

  it("fetch('post', '/v1/reports/render') keys its POST too, and retries a 504 RENDER_TIMEOUT with the same key", async () => {
    const { folio, seen } = await serve((_, n): Answer =>
      n === 0
        ? { status: 504, headers: { "retry-after": "0" }, json: errorBody("RENDER_TIMEOUT", "The report was not ready in 95 s", true) }
        : { status: 200, headers: { "content-type": "application/pdf", "x-render-id": "rnd_9" }, bytes: pdf },
    );
    const res = await folio.fetch("post", "/v1/reports/render", { body: { format: "pdf", template: { name: "Invoice" } } });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf);
    expect(seen).toHaveLength(2);
    expect(keysOf(seen)[0]).toMatch(UUID);
    expect(keysOf(seen)[1]).toBe(keysOf(seen)[0]);
  });

  it("batches.create and a caller's own key: the same key after a lost answer, and after a 503", async () => {
    const summary = { id: "bat_1", createdAt: "2026-11-27T04:00:00.000Z", total: 1, counts: { queued: 1, processing: 0, succeeded: 0, failed: 0, cancelled: 0 }, items: [] };
    const { folio, seen } = await serve((_, n) => (n === 0 ? "drop" : n === 1 ? unavailable : { status: 202, json: summary }));
    const b = await folio.batches.create({ items: [{ document: { html: "<p>1</p>" } }] }, { idempotencyKey: "order-4711" });
    expect(b.id).toBe("bat_1");
    expect(keysOf(seen)).toEqual(["order-4711", "order-4711", "order-4711"]);
  });

  it("post() of an endpoint that answers a file gives its bytes, not JSON", async () => {
    const { folio, seen } = await serve(() => ({ status: 200, headers: { "content-type": "application/pdf" }, bytes: pdf }));
    const bytes = await folio.post("/v1/reports/render", { body: { format: "pdf", template: { name: "Invoice" } } });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes).toString("latin1")).toMatch(/^%PDF-/);
    expect(keysOf(seen)[0]).toMatch(UUID);
    const report = await folio.reports.render({ format: "pdf", template: { name: "Invoice" } });
    expect(report).toMatchObject({ contentType: "application/pdf", bytes: pdf });
  });
});

describe("requests that cannot take a key", () => {
  it("a POST without key support is not sent again after a 503: the caller gets the retryable error", async () => {
    const { folio, seen } = await serve(() => unavailable);
    const e = await folio.post("/v1/templates", { body: { name: "Letter", kind: "handlebars", content: { templateHtml: "<p>x</p>" } } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FolioError);
    expect(e).toMatchObject({ code: "INTERNAL", status: 503, retryable: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("nor after a lost answer (it may have been carried out), nor a cancel", async () => {
    const { folio, seen } = await serve(() => "drop");
    const e = await folio.post("/v1/workspace-folders", { body: { name: "brand" } }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "NETWORK", status: 0, retryable: false });
    expect((e as Error).message).toMatch(/may have been carried out/);
    expect(seen).toHaveLength(1);
    await expect(folio.renders.cancel("rnd_1")).rejects.toMatchObject({ code: "NETWORK" });
    expect(seen).toHaveLength(2);
  });

  it("a key given to an endpoint that takes none is a TypeError, before any request", async () => {
    const { folio, seen } = await serve(() => ({ status: 200, json: {} }));
    await expect(folio.fetch("post", "/v1/templates", { body: {}, idempotencyKey: "k" })).rejects.toThrow(/POST \/v1\/templates takes no Idempotency-Key/);
    expect(seen).toHaveLength(0);
  });

  it("a 429 is sent again after its Retry-After whatever the method: the server refused it before doing anything", async () => {
    const { folio, seen } = await serve((_, n) => (n === 0 ? { status: 429, headers: { "retry-after": "0" }, json: errorBody("RATE_LIMITED", "Too many requests", true) } : { status: 201, json: { id: "fld_1", name: "brand", path: "brand", createdAt: "", updatedAt: "" } }));
    expect((await folio.post("/v1/workspace-folders", { body: { name: "brand" } })).id).toBe("fld_1");
    expect(seen).toHaveLength(2);
  });

  it("a GET is retried after a 503 and a lost answer, without a key", async () => {
    const { folio, seen } = await serve((_, n) => (n === 0 ? unavailable : n === 1 ? "drop" : { status: 200, json: renderBody("rnd_1", "succeeded") }));
    expect((await folio.renders.get("rnd_1")).state).toBe("succeeded");
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(Array(3).fill("GET /v1/renders/rnd_1"));
    expect(keysOf(seen)).toEqual([undefined, undefined, undefined]);
  });
});

describe("what every request says, and waits", () => {
  it("sends User-Agent folio-client/<version> node/<version>; the version is package.json's", async () => {
    const { folio, seen } = await serve(() => ({ status: 200, json: { items: [] } }));
    await folio.renders.list({ limit: 5 });
    expect(seen[0]!.headers["user-agent"]).toBe(`folio-client/${VERSION} node/${process.versions.node}`);
    expect(seen[0]!.headers["x-api-key"]).toBe("folio_test");
    expect(seen[0]!.query.get("limit")).toBe("5");
    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });

  it("a wait that gives up says how long it waited, from the create on", async () => {
    const { folio } = await serve(async (req) => {
      // The server holds a read up to its waitMs, as Folio does for a render that has not ended.
      await new Promise((r) => setTimeout(r, Math.min(100, Number(req.query.get("waitMs") ?? 0))));
      return { status: req.method === "POST" ? 202 : 200, json: renderBody("rnd_1", "processing") };
    });
    const e = await folio.renders.createAndWait({ document: { html: "<p>slow</p>" } }, { timeoutMs: 700 }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "RENDER_TIMEOUT", retryable: true });
    expect((e as Error).message).toMatch(/^Render rnd_1 had not ended after 0\.[7-9] s \(it is processing\)/);
  });
});
