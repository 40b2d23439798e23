import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { startRenderHolds, type RenderHolds } from "@/lib/testing/held-renders";
import { api, expectError } from "@/lib/testing/http";
import { createRender, download, idleDocument, heldRender } from "@/lib/testing/renders";
import type { Render } from "@/lib/renders/schemas";
import { securityCases } from "@/lib/testing/security-cases";


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (key: string | undefined, id: string) => api<Render>(`/v1/renders/${id}`, { key });

let holds: RenderHolds;
beforeAll(async () => {
  holds = await startRenderHolds();
});
afterAll(() => holds?.stop());


describe("GET /v1/renders/{id}", () => {
  it("answers 200 with the render, as POST answered it", async () => {
    const w = await createTestWorkspace();
    const created = await createRender(w.key, { document: { html: "<p>read me</p>" }, test: true, waitMs: 20_000 });
    expect(created.status, created.text).toBe(200);
    const res = await get(w.key, created.body.id);
    expect(res.status, res.text).toBe(200);
    const { result, ...rest } = res.body;
    const { result: createdResult, ...createdRest } = created.body as Render;
    expect(rest).toEqual(createdRest);
    expect(rest).toEqual(expect.objectContaining({ state: "succeeded", test: true, source: "document", format: "pdf" }));
    expect(result).toEqual({ ...createdResult, downloadUrl: expect.any(String), expiresAt: expect.any(String) });
    expect(res.body.error).toBeUndefined();
  });

  it("gives a fresh five-minute download link on each read; both links work", async () => {
    const w = await createTestWorkspace();
    const created = await createRender(w.key, { document: { html: "<p>links</p>" }, waitMs: 20_000 });
    expect(created.status, created.text).toBe(200);
    const first = (await get(w.key, created.body.id)).body.result!;
    await sleep(1100);
    const readAt = Date.now();
    const second = (await get(w.key, created.body.id)).body.result!;
    const readEnd = Date.now();
    expect(second.downloadUrl).not.toBe(first.downloadUrl);
    expect(Date.parse(second.expiresAt!) - Date.parse(first.expiresAt!)).toBeGreaterThanOrEqual(1000);
    expect(Date.parse(second.expiresAt!)).toBeGreaterThanOrEqual(readAt + 5 * 60_000 - 1000);
    expect(Date.parse(second.expiresAt!)).toBeLessThanOrEqual(readEnd + 5 * 60_000 + 1000);
    const [a, b] = await Promise.all([download(first.downloadUrl!), download(second.downloadUrl!)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(a.bytes.byteLength).toBe(second.outputBytes);
  });

  it("shows the states in order: queued or processing, then succeeded, with createdAt <= startedAt <= finishedAt", async () => {
    const w = await createTestWorkspace();
    // why: a page open 3 s (idle) keeps the render in processing long enough to be seen by slow polls.
    const created = await createRender(w.key, { document: idleDocument(3000, "states") });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    const seen: Render[] = [created.body];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const r = (await get(w.key, id)).body;
      if (r.state !== seen[seen.length - 1]!.state) seen.push(r);
      if (r.state === "succeeded" || r.state === "failed" || r.state === "cancelled") break;
      await sleep(20);
    }
    const states = seen.map((r) => r.state);
    expect(states[states.length - 1]).toBe("succeeded");
    // Every observed transition goes forward: queued -> processing -> succeeded.
    const order = ["queued", "processing", "succeeded"];
    for (let i = 1; i < states.length; i++) expect(order.indexOf(states[i]!)).toBeGreaterThan(order.indexOf(states[i - 1]!));
    expect(states).toContain("processing");

    for (const r of seen) {
      if (r.state === "queued") {
        expect(r.startedAt).toBeUndefined();
        expect(r.finishedAt).toBeUndefined();
        expect(r.result).toBeUndefined();
      }
      if (r.state === "processing") {
        expect(r.startedAt).toEqual(expect.any(String));
        expect(r.finishedAt).toBeUndefined();
        expect(r.result).toBeUndefined();
      }
    }
    const processing = seen.find((r) => r.state === "processing")!;
    const done = seen[seen.length - 1]!;
    expect(done.startedAt).toBe(processing.startedAt);
    expect(done.createdAt).toBe(created.body.createdAt);
    const t = (s?: string) => Date.parse(s!);
    expect(t(done.createdAt)).toBeLessThanOrEqual(t(done.startedAt));
    expect(t(done.startedAt)).toBeLessThanOrEqual(t(done.finishedAt));
    expect(t(done.finishedAt)).toBeLessThanOrEqual(t(done.updatedAt));
    expect(t(done.finishedAt) - t(done.startedAt)).toBeGreaterThanOrEqual(700);
    expect(t(processing.updatedAt)).toBeGreaterThanOrEqual(t(created.body.updatedAt));
    expect(done.result).toEqual(expect.objectContaining({ pageCount: 1, downloadUrl: expect.any(String) }));
    expect(done.result!.durationMs).toBeGreaterThanOrEqual(700);
  });

  it("answers 404 NOT_FOUND for an unknown id and for another workspace's render", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await createRender(other.key, { document: { html: "<p>theirs</p>" } });
    expect(theirs.status).toBe(202);
    expectError(await get(w.key, "rnd_doesnotexist"), 404, "NOT_FOUND");
    expectError(await get(w.key, theirs.body.id), 404, "NOT_FOUND");
    expect((await get(other.key, theirs.body.id)).status).toBe(200);
  });

  it("with waitMs, answers when the render ends, woken by its end; at the time's end it answers the render still running", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const held = await holds.hold(w, { document: { html: "<p>wait for me</p>" } });
    const short = performance.now();
    const still = await api<Render>(`/v1/renders/${held.id}?waitMs=400`, { key: w.key });
    expect(still.status, still.text).toBe(200);
    expect(still.body.state).toBe("processing");
    expect(performance.now() - short).toBeGreaterThanOrEqual(350);
    const waiting = api<Render>(`/v1/renders/${held.id}?waitMs=45000`, { key: w.key });
    await sleep(300);
    const released = performance.now();
    held.release();
    const res = await waiting;
    expect(res.status, res.text).toBe(200);
    expect(res.body.state).toBe("succeeded");
    expect(res.body.result?.downloadUrl).toEqual(expect.any(String));
    expect(performance.now() - released).toBeLessThan(30_000);
    // An ended render answers at once; a bad waitMs is refused naming it.
    const again = performance.now();
    expect((await api<Render>(`/v1/renders/${held.id}?waitMs=45000`, { key: w.key })).body.state).toBe("succeeded");
    expect(performance.now() - again).toBeLessThan(30_000);
    for (const bad of ["60001", "-5", "soon"]) {
      const e = expectError(await api(`/v1/renders/${held.id}?waitMs=${bad}`, { key: w.key }), 400, "BAD_REQUEST");
      expect(e.details?.[0]).toMatchObject({ path: "query.waitMs" });
    }
  });

  describe("security", () => {
    securityCases({
      scope: "render:read",
      request: async (w, key) => get(key, await heldRender(w.id)),
      crossWorkspace: async (w, other) => get(w.key, await heldRender(other.id)),
    });
  });
});
