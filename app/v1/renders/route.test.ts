import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { pdfText } from "@/lib/testing/pdf";
import { createRender, download, seedRenders, setAllowances, idleDocument, waitForState } from "@/lib/testing/renders";
import type { Render } from "@/lib/renders/schemas";
import { securityCases } from "@/lib/testing/security-cases";


const MiB = 1024 * 1024;
const tiny = (text = "tiny") => ({ document: { html: `<p>${text}</p>` } });
const isoString = (s: unknown) => typeof s === "string" && new Date(s).toISOString() === s;
const noSpace = (s: string) => s.replace(/\s+/g, "");

/** Every render of the workspace, following the pages. */
async function listAll(w: TestWorkspace, limit = 100): Promise<Render[]> {
  const out: Render[] = [];
  let cursor: string | undefined;
  do {
    const res = await api(`/v1/renders?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: w.key });
    expect(res.status, res.text).toBe(200);
    out.push(...(res.body.items as Render[]));
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

/** A raw JSON body (already a string) so its exact size is known. */
const htmlBody = (chars: number) => `{"document":{"html":"${"a".repeat(chars)}"}}`;
const htmlBodyOfBytes = (bytes: number) => htmlBody(bytes - htmlBody(0).length);

describe("POST /v1/renders", () => {
  it("answers 200 with the succeeded render and a working five-minute download link when it ends within waitMs", async () => {
    const w = await createTestWorkspace();
    const text = `Folio render ${randomBytes(4).toString("hex")}`;
    const before = Date.now();
    const res = await createRender(w.key, { document: { html: `<h1>${text}</h1>` }, waitMs: 20_000 });
    expect(res.status, res.text).toBe(200);
    const r = res.body as Render;
    expect(r).toEqual({
      id: expect.stringMatching(/^rnd_/),
      state: "succeeded",
      test: false,
      source: "document",
      format: "pdf",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      result: {
        downloadUrl: expect.any(String),
        expiresAt: expect.any(String),
        pageCount: 1,
        outputBytes: expect.any(Number),
        durationMs: expect.any(Number),
      },
    });
    for (const f of ["createdAt", "updatedAt", "startedAt", "finishedAt", "expiresAt"] as const) {
      const v = f === "expiresAt" ? r.result!.expiresAt : r[f];
      expect(isoString(v), `${f}: ${v}`).toBe(true);
    }
    const expires = Date.parse(r.result!.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 5 * 60_000 - 2_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 5 * 60_000 + 2_000);
    expect(r.result!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(r.createdAt)).toBeLessThanOrEqual(Date.parse(r.startedAt!));
    expect(Date.parse(r.startedAt!)).toBeLessThanOrEqual(Date.parse(r.finishedAt!));
    // The answer is built from the render-ended notification; it shows what a read of the render shows.
    const read = await api(`/v1/renders/${r.id}`, { key: w.key });
    const withoutLink = (x: Render) => ({ ...x, result: { ...x.result, downloadUrl: undefined, expiresAt: undefined } });
    expect(withoutLink(read.body as Render)).toEqual(withoutLink(r));

    const file = await download(r.result!.downloadUrl!);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(file.bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(file.bytes.byteLength).toBe(r.result!.outputBytes);
    expect(noSpace(pdfText(file.bytes))).toContain(noSpace(text));
  });

  it("answers 202 with the queued render by default (waitMs 0), which later succeeds", async () => {
    const w = await createTestWorkspace();
    const res = await createRender(w.key, { document: { html: "<p>later</p>" } });
    expect(res.status, res.text).toBe(202);
    const r = res.body as Render;
    expect(["queued", "processing"]).toContain(r.state);
    expect(r.result).toBeUndefined();
    expect(r.finishedAt).toBeUndefined();
    expect(isoString(r.createdAt)).toBe(true);
    const ended = await waitForState(w.key, r.id);
    expect(ended.state).toBe("succeeded");
    expect(ended.result).toEqual(expect.objectContaining({ pageCount: 1, downloadUrl: expect.any(String) }));
  });

  it("answers 202 when a 1.5 s render outlasts waitMs 200, and 200 when waitMs 10000 covers it", async () => {
    const w = await createTestWorkspace();
    let t = Date.now();
    const short = await createRender(w.key, { document: idleDocument(1500, "short wait"), waitMs: 200 });
    const shortMs = Date.now() - t;
    expect(short.status, short.text).toBe(202);
    expect(["queued", "processing"]).toContain(short.body.state);
    expect(shortMs).toBeGreaterThanOrEqual(190); // it did wait, and answered before the render ended (202)
    expect((await waitForState(w.key, short.body.id)).state).toBe("succeeded");

    t = Date.now();
    const long = await createRender(w.key, { document: idleDocument(1500, "long wait"), waitMs: 30_000 });
    const longMs = Date.now() - t;
    expect(long.status, long.text).toBe(200); // it answered once the render ended, not at waitMs
    expect(long.body.state).toBe("succeeded");
    expect(longMs).toBeGreaterThanOrEqual(1400);
  });

  describe("validation", () => {
    const doc = (extra: Record<string, unknown> = {}) => ({ html: "<p>x</p>", ...extra });
    const settings = (s: Record<string, unknown>) => ({ document: doc({ settings: s }) });
    const cases: [string, unknown, string][] = [
      ["a missing document", { waitMs: 0 }, "document"],
      ["document.html that is not a string", { document: { html: 42 } }, "document.html"],
      ["html over 5,000,000 characters", { document: { html: "a".repeat(5_000_001) } }, "document.html"],
      ["a header over 100,000 characters", { document: doc({ header: "h".repeat(100_001) }) }, "document.header"],
      ["a footer over 100,000 characters", { document: doc({ footer: "f".repeat(100_001) }) }, "document.footer"],
      ["an unknown top-level field", { document: doc(), colour: "red" }, "colour"],
      ["an unknown field in document", { document: doc({ css: "p{}" }) }, "document.css"],
      ["an unknown field in settings", settings({ landscape: true }), "document.settings.landscape"],
      ["format gif", { document: doc(), format: "gif" }, "format"],
      ["image with format pdf", { document: doc(), format: "pdf", image: { page: 1, scale: 1 } }, "image"],
      ["pageRanges 0-2", { document: doc(), pageRanges: "0-2" }, "pageRanges"],
      ["pageRanges 3-1", { document: doc(), pageRanges: "3-1" }, "pageRanges"],
      ["pageRanges abc", { document: doc(), pageRanges: "abc" }, "pageRanges"],
      ["waitMs -1", { document: doc(), waitMs: -1 }, "waitMs"],
      ["waitMs 60001", { document: doc(), waitMs: 60_001 }, "waitMs"],
      ["waitMs 1.5", { document: doc(), waitMs: 1.5 }, "waitMs"],
      ["pageSize.widthMm 5", settings({ pageSize: { widthMm: 5, heightMm: 297 } }), "document.settings.pageSize.widthMm"],
      ["pageSize.widthMm 6000", settings({ pageSize: { widthMm: 6000, heightMm: 297 } }), "document.settings.pageSize.widthMm"],
      ["left and right margins that leave no room", settings({ margins: { leftMm: 105, rightMm: 105 } }), "document.settings.margins"],
      ["top and bottom margins that leave no room", settings({ pageSize: { widthMm: 100, heightMm: 50 }, margins: { topMm: 30, bottomMm: 20 } }), "document.settings.margins"],
      ["locale 'not a locale!!'", settings({ locale: "not a locale!!" }), "document.settings.locale"],
      ["test 'yes'", { document: doc(), test: "yes" }, "test"],
    ];

    it.each(cases)("answers 400 naming the path for %s, and creates nothing", async (_name, body, path) => {
      const w = await createTestWorkspace();
      const e = expectError(await createRender(w.key, body as Record<string, unknown>), 400, "BAD_REQUEST");
      expect(e.details, JSON.stringify(e)).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.any(String) })]));
      expect(e.message).toContain(path);
      expect(await listAll(w)).toEqual([]);
    });

    it("accepts the bounds themselves: html of 5,000,000 characters, a header of 100,000, a 10 x 5000 mm page", async () => {
      const w = await createTestWorkspace();
      // why: comments make the largest inputs cheap to render, so the shared worker is not kept busy.
      const comment = (chars: number) => `<!--${"a".repeat(chars - 7)}-->`;
      const bodies = [
        { document: { html: `${comment(5_000_000 - 8)}<p>x</p>` } },
        { document: doc({ header: comment(100_000), footer: comment(100_000) }), test: true, pageRanges: "1" },
        settings({ pageSize: { widthMm: 10, heightMm: 5000 }, margins: { leftMm: 0, rightMm: 0, topMm: 0, bottomMm: 0 } }),
        settings({ pageSize: { widthMm: 5000, heightMm: 10 }, margins: { leftMm: 1000, rightMm: 1000, topMm: 4, bottomMm: 5 } }),
      ];
      expect((bodies[0]!.document as { html: string }).html).toHaveLength(5_000_000);
      const ids: string[] = [];
      for (const body of bodies) {
        const res = await createRender(w.key, body);
        expect(res.status, res.text.slice(0, 300)).toBe(202);
        ids.push(res.body.id);
      }
      for (const id of ids) expect((await waitForState(w.key, id)).state).toBe("succeeded");
      expect(await listAll(w)).toHaveLength(bodies.length);
    });

    it("answers 400 ASSET_INVALID naming document.assetIds.0 for any asset id", async () => {
      const w = await createTestWorkspace();
      const e = expectError(await createRender(w.key, { document: doc({ assetIds: ["ast_nope", "ast_other"] }) }), 400, "ASSET_INVALID");
      expect(e.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "document.assetIds.0" })]));
      expect(await listAll(w)).toEqual([]);
    });
  });

  describe("body size", () => {
    it("answers 413 LIMIT_EXCEEDED for a body one byte over 11 MiB (Content-Length checked before reading)", async () => {
      const w = await createTestWorkspace();
      const body = htmlBodyOfBytes(11 * MiB + 1);
      expect(body.length).toBe(11 * MiB + 1);
      const res = await api("/v1/renders", { key: w.key, body });
      expectError(res, 413, "LIMIT_EXCEEDED");
      expect(await listAll(w)).toEqual([]);
    });

    // why one retry and a socket deadline: once in about ten suite runs (2026-11-27, under full load) the
    // request got neither an answer nor an error for 60 s; not reproduced in 9 runs of it alone. A second
    // hang in a row still fails the test.
    it("answers 413 for a chunked body over 11 MiB without Content-Length (counted as it streams)", { retry: 1 }, async () => {
      const w = await createTestWorkspace();
      const url = new URL(`${inject("baseUrl")}/v1/renders`);
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "x-api-key": w.key, "content-type": "application/json", "transfer-encoding": "chunked" },
        });
        req.on("response", (r) => {
          let body = "";
          r.setEncoding("utf8");
          r.on("data", (d: string) => (body += d));
          r.on("end", () => resolve({ status: r.statusCode!, body }));
        });
        req.on("error", reject);
        req.setTimeout(20_000, () => req.destroy(new Error("no answer and no error within 20 s")));
        const chunk = "a".repeat(MiB);
        let written = 0;
        req.write('{"document":{"html":"');
        const pump = () => {
          while (written < 12) {
            written++;
            if (!req.write(chunk)) return void req.once("drain", pump);
          }
          req.end('"}}');
        };
        pump();
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).error.code).toBe("LIMIT_EXCEEDED");
      expect(await listAll(w)).toEqual([]);
    });

    it("answers every client the 413 envelope for a body of 11 MiB + 1, never a reset: fetch and http.request, with Content-Length and chunked, 20 times each", { timeout: 300_000 }, async () => {
      const w = await createTestWorkspace();
      const url = `${inject("baseUrl")}/v1/renders`;
      const headers = { "x-api-key": w.key, "content-type": "application/json" };
      const body = Buffer.from(htmlBodyOfBytes(11 * MiB + 1));
      expect(body.length).toBe(11 * MiB + 1);
      /** One request by http.request; the answer, or the error it ended with before its answer was read whole. */
      const viaHttp = (chunked: boolean) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = http.request(url, { method: "POST", headers: chunked ? { ...headers, "transfer-encoding": "chunked" } : { ...headers, "content-length": String(body.length) } }, (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d: string) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode!, text }));
            res.on("error", reject);
          });
          req.on("error", reject);
          // Chunked: the body goes in 1 MiB chunks, so no length is known before it ends.
          if (chunked) {
            for (let i = 0; i < body.length; i += MiB) req.write(body.subarray(i, i + MiB));
            req.end();
          } else req.end(body);
        });
      const viaFetch = async () => {
        const res = await fetch(url, { method: "POST", headers, body });
        return { status: res.status, text: await res.text() };
      };
      const outcomes: string[] = [];
      for (const [name, send] of [["fetch", viaFetch], ["http.request, Content-Length", () => viaHttp(false)], ["http.request, chunked", () => viaHttp(true)]] as const) {
        for (let i = 0; i < 20; i++) {
          const outcome = await send().then(
            (r) => `${r.status} ${(JSON.parse(r.text) as { error?: { code?: string } }).error?.code}`,
            (e: unknown) => `${(e as { cause?: { code?: string } }).cause?.code ?? (e as { code?: string }).code ?? String(e)}`,
          );
          outcomes.push(`${name}: ${outcome}`);
        }
      }
      const expected = ["fetch", "http.request, Content-Length", "http.request, chunked"].flatMap((name) => Array<string>(20).fill(`${name}: 413 LIMIT_EXCEEDED`));
      expect(outcomes).toEqual(expected);
      expect(await listAll(w)).toEqual([]);
    });

    it("ends the connection 2 s after a 413 sent before the body when the client neither sends the rest nor closes", async () => {
      const w = await createTestWorkspace();
      const url = new URL(inject("baseUrl"));
      const socket = net.connect(Number(url.port), url.hostname);
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      let answer = "";
      socket.setEncoding("utf8");
      socket.on("data", (d: string) => (answer += d));
      socket.on("error", () => {}); // a reset after the linger is a close too
      socket.write(
        `POST /v1/renders HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${w.key}\r\ncontent-type: application/json\r\n` +
          `content-length: ${12 * MiB}\r\n\r\n{"document":{"html":"`,
      );
      const started = Date.now();
      const result = await Promise.race([closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("still open"), 8000))]);
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"LIMIT_EXCEEDED"');
      expect(result).toBe("closed");
      expect(Date.now() - started).toBeLessThan(8000);
    });

    it("reads bodies up to 11 MiB: 6 MiB and exactly 11 MiB answer 400 for html length, not 413", async () => {
      const w = await createTestWorkspace();
      for (const size of [6 * MiB, 11 * MiB]) {
        const body = htmlBodyOfBytes(size);
        expect(body.length).toBe(size);
        const e = expectError(await api("/v1/renders", { key: w.key, body }), 400, "BAD_REQUEST");
        expect(e.details).toEqual([expect.objectContaining({ path: "document.html" })]);
      }
      expect(await listAll(w)).toEqual([]);
    });
  });

  describe("Idempotency-Key", () => {
    const key = () => `idem-${randomBytes(8).toString("hex")}`;

    it("returns the first render for a repeat with the same key and body, creating one render", async () => {
      const w = await createTestWorkspace();
      const k = key();
      const body = tiny("idempotent");
      const first = await createRender(w.key, body, { headers: { "idempotency-key": k } });
      expect([200, 202]).toContain(first.status);
      const second = await createRender(w.key, body, { headers: { "idempotency-key": k } });
      expect([200, 202]).toContain(second.status);
      expect(second.body.id).toBe(first.body.id);
      expect((await listAll(w)).map((r) => r.id)).toEqual([first.body.id]);
      // waitMs only says how long to wait, not what to render: a repeat with another waitMs is the same request.
      const third = await createRender(w.key, { ...body, waitMs: 5000 }, { headers: { "idempotency-key": k } });
      expect(third.status).toBe(200);
      expect(third.body.id).toBe(first.body.id);
      // A different document is a different request.
      expectError(await createRender(w.key, { ...body, test: true }, { headers: { "idempotency-key": k } }), 409, "CONFLICT");
    });

    it("waits again on a repeat that carries waitMs, answering 200 with the first render once it ended", async () => {
      const w = await createTestWorkspace();
      const k = key();
      const body = { ...tiny("repeat waits"), waitMs: 20_000 };
      const first = await createRender(w.key, body, { headers: { "idempotency-key": k } });
      expect(first.status, first.text).toBe(200);
      const again = await createRender(w.key, body, { headers: { "idempotency-key": k } });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toEqual(expect.objectContaining({ id: first.body.id, state: "succeeded" }));
      expect(await listAll(w)).toHaveLength(1);
    });

    it("answers 409 CONFLICT for the same key with a different body, creating nothing more", async () => {
      const w = await createTestWorkspace();
      const k = key();
      const first = await createRender(w.key, tiny("one"), { headers: { "idempotency-key": k } });
      expect(first.status).toBe(202);
      const e = expectError(await createRender(w.key, tiny("two"), { headers: { "idempotency-key": k } }), 409, "CONFLICT");
      expect(e.retryable).toBe(false);
      expect((await listAll(w)).map((r) => r.id)).toEqual([first.body.id]);
    });

    it("treats the same key as separate in another workspace", async () => {
      const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
      const k = key();
      const a = await createRender(w.key, tiny("a"), { headers: { "idempotency-key": k } });
      const b = await createRender(other.key, tiny("b"), { headers: { "idempotency-key": k } });
      expect(a.status).toBe(202);
      expect(b.status).toBe(202);
      expect(b.body.id).not.toBe(a.body.id);
    });

    it("gives 5 concurrent duplicates one render id", async () => {
      const w = await createTestWorkspace();
      const k = key();
      const body = tiny("concurrent");
      const all = await Promise.all(Array.from({ length: 5 }, () => createRender(w.key, body, { headers: { "idempotency-key": k } })));
      for (const r of all) expect([200, 202], r.text).toContain(r.status);
      expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
      expect((await listAll(w)).map((r) => r.id)).toEqual([all[0]!.body.id]);
    });

    it.each([
      ["with spaces", "has some spaces"],
      ["of 300 characters", "k".repeat(300)],
      ["that is empty", ""],
    ])("answers 400 for an Idempotency-Key %s, creating nothing", async (_name, value) => {
      const w = await createTestWorkspace();
      const e = expectError(await createRender(w.key, tiny(), { headers: { "idempotency-key": value } }), 400, "BAD_REQUEST");
      expect(e.details).toEqual([expect.objectContaining({ path: "headers.idempotency-key" })]);
      expect(await listAll(w)).toEqual([]);
    });

    it("accepts a key of 255 printable characters", async () => {
      const w = await createTestWorkspace();
      const res = await createRender(w.key, tiny(), { headers: { "idempotency-key": "~".repeat(255) } });
      expect(res.status, res.text).toBe(202);
    });
  });

  describe("security", () => {
    securityCases({ scope: "render:create", request: (_w, key) => createRender(key!, tiny("security")) });
  });
});

describe("GET /v1/renders", () => {
  it("pages 30 renders newest first with limit 10, each exactly once, and shows no other workspace's", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await setAllowances(w.id, { maxActiveRenders: 100 }); // 30 renders may be waiting at once
    const created: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await createRender(w.key, tiny(`list ${i}`));
      expect(res.status, res.text).toBe(202);
      created.push(res.body.id);
    }
    const foreign = await createRender(other.key, tiny("other"));
    expect(foreign.status).toBe(202);

    const pages: Render[][] = [];
    let cursor: string | undefined;
    do {
      const res = await api(`/v1/renders?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: w.key });
      expect(res.status, res.text).toBe(200);
      pages.push(res.body.items);
      cursor = res.body.nextCursor;
      expect(pages.length).toBeLessThanOrEqual(3);
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10]);
    const ids = pages.flat().map((r) => r.id);
    expect(ids).toEqual([...created].reverse());
    const times = pages.flat().map((r) => Date.parse(r.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]!);
    expect(pages[0]![0]).toEqual(expect.objectContaining({ source: "document", format: "pdf", test: false }));
  });

  it("answers an empty page for a workspace without renders", async () => {
    const w = await createTestWorkspace();
    const res = await api("/v1/renders", { key: w.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [] });
  });

  it("answers 400 for a bad limit, a bad cursor and an unknown query field", async () => {
    const w = await createTestWorkspace();
    expect(expectError(await api("/v1/renders?limit=0", { key: w.key }), 400, "BAD_REQUEST").details).toEqual([
      expect.objectContaining({ path: "query.limit" }),
    ]);
    expect(expectError(await api("/v1/renders?limit=101", { key: w.key }), 400, "BAD_REQUEST").details).toEqual([
      expect.objectContaining({ path: "query.limit" }),
    ]);
    expect(expectError(await api("/v1/renders?cursor=nonsense", { key: w.key }), 400, "BAD_REQUEST").details).toEqual([
      expect.objectContaining({ path: "query.cursor" }),
    ]);
    expect(expectError(await api("/v1/renders?colour=red", { key: w.key }), 400, "BAD_REQUEST").details).toEqual([
      expect.objectContaining({ path: "query.colour" }),
    ]);
  });

  describe("filters", () => {
    const ids = (p: { items: Render[] }) => p.items.map((r) => r.id);
    const page = async (w: TestWorkspace, query: string) => {
      const res = await api<{ items: Render[]; nextCursor?: string }>(`/v1/renders?${query}`, { key: w.key });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };

    it("lists only the renders of one state, of one test flag, or both, newest first", async () => {
      const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
      const [ok, okTest, failed, failedTest, cancelled, running] = await seedRenders(w.id, [
        { state: "succeeded" },
        { state: "succeeded", test: true },
        { state: "failed" },
        { state: "failed", test: true },
        { state: "cancelled" },
        { state: "processing", test: true },
      ]);
      await seedRenders(other.id, [{ state: "failed" }, { state: "succeeded", test: true }]);

      expect(ids(await page(w, "state=failed"))).toEqual([failedTest, failed]);
      expect(ids(await page(w, "state=succeeded"))).toEqual([okTest, ok]);
      expect(ids(await page(w, "state=cancelled"))).toEqual([cancelled]);
      expect(ids(await page(w, "state=processing"))).toEqual([running]);
      expect(ids(await page(w, "state=queued"))).toEqual([]);
      expect(ids(await page(w, "test=true"))).toEqual([running, failedTest, okTest]);
      expect(ids(await page(w, "test=false"))).toEqual([cancelled, failed, ok]);
      expect(ids(await page(w, "state=failed&test=false"))).toEqual([failed]);
      expect(ids(await page(w, "test=true&state=succeeded"))).toEqual([okTest]);
      const failedOne = (await page(w, "state=failed&test=false")).items[0]!;
      expect(failedOne).toMatchObject({ state: "failed", test: false, error: { code: "RENDER_FAILED", diagnostic: "document_invalid" } });
    });

    it("pages a filtered list with its cursor, each matching render exactly once", async () => {
      const w = await createTestWorkspace();
      const seeded = await seedRenders(
        w.id,
        Array.from({ length: 12 }, (_, i) => ({ state: i % 3 === 0 ? ("failed" as const) : ("succeeded" as const) })),
      );
      const failed = seeded.filter((_, i) => i % 3 === 0).reverse();
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const p = await page(w, `state=failed&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        seen.push(...ids(p));
        cursor = p.nextCursor;
        pages++;
      } while (cursor && pages < 5);
      expect(seen).toEqual(failed);
      expect(pages).toBe(2);
    });

    it("finds a real test render by state and flag once it succeeded", async () => {
      const w = await createTestWorkspace();
      const real = await createRender(w.key, { document: { html: "<p>filtered</p>" }, test: true, waitMs: 20_000 });
      expect(real.status, real.text).toBe(200);
      await createRender(w.key, { document: { html: "<p>not a test</p>" }, waitMs: 20_000 });
      expect(ids(await page(w, "state=succeeded&test=true"))).toEqual([real.body.id]);
    });

    it.each([
      ["state=done", "query.state"],
      ["state=", "query.state"],
      ["test=yes", "query.test"],
      ["test=1", "query.test"],
      ["state=failed&state=succeeded", "query.state"],
    ])("answers 400 naming the parameter for %s", async (query, path) => {
      const w = await createTestWorkspace();
      const e = expectError(await api(`/v1/renders?${query}`, { key: w.key }), 400, "BAD_REQUEST");
      expect(e.details).toEqual([expect.objectContaining({ path })]);
    });
  });

  describe("security", () => {
    securityCases({ scope: "render:read", request: (_w, key) => api("/v1/renders", { key }) });
  });
});
