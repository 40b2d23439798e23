import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEnvironment, type Environment } from "@/lib/testing/environment";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { createRender, idleDocument, slotHoldingDocument, waitForState, heldRender } from "@/lib/testing/renders";
import { securityCases } from "@/lib/testing/security-cases";

type Render = {
  id: string;
  state: string;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  result?: unknown;
  error?: unknown;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// One Folio of its own with a single worker slot, so a test decides what occupies it.
let env: Environment;
beforeAll(async () => {
  env = await startEnvironment({ WORKER_CONCURRENCY: "1" });
});
afterAll(async () => {
  await env?.stop();
});

const opts = () => ({ baseUrl: env.baseUrl });
const create = (body: Record<string, unknown>) => createRender(env.key, body, opts());
const read = async (id: string) => (await api<Render>(`/v1/renders/${id}`, { key: env.key, ...opts() })).body;
const cancel = (id: string, key = env.key, baseUrl = env.baseUrl) => api<Render>(`/v1/renders/${id}/cancel`, { method: "POST", key, baseUrl });
const waitFor = (id: string, states: string[], timeout = 30_000) => waitForState(env.key, id, states, { ...opts(), timeout });

/** Files the environment's store holds for a render (renders/<workspace>/<id>.<ext>). */
function storedFiles(id: string): string[] {
  const root = path.join(env.dataDir, "files", "renders");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((ws) => fs.readdirSync(path.join(root, ws)).filter((f) => f.startsWith(`${id}.`)));
}

describe("POST /v1/renders/{id}/cancel", () => {
  it("cancels a queued render: 200 cancelled, it never starts, and its file answers 409", async () => {
    const blocker = await create({ document: slotHoldingDocument("blocker") });
    expect(blocker.status, blocker.text).toBe(202);
    await waitFor(blocker.body.id, ["processing"], 45_000); // the environment's worker may still be starting

    const queued = await create({ document: { html: "<p>never rendered</p>" } });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body.state).toBe("queued");

    const res = await cancel(queued.body.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ id: queued.body.id, state: "cancelled", finishedAt: expect.any(String) }));
    expect(res.body.startedAt).toBeUndefined();
    expect(res.body.result).toBeUndefined();
    expect(res.body.error).toBeUndefined();

    // Once the slot is free again, the cancelled render's job must not bring it back.
    expect((await cancel(blocker.body.id)).status).toBe(200);
    const next = await create({ document: { html: "<p>after</p>" }, waitMs: 10_000 });
    expect(next.body.state).toBe("succeeded"); // the queue behind the cancelled job has been worked through
    const after = await read(queued.body.id);
    expect(after.state).toBe("cancelled");
    expect(after.startedAt).toBeUndefined();
    expect(after.finishedAt).toBe(res.body.finishedAt);
    expect(storedFiles(queued.body.id)).toEqual([]);

    const file = await api(`/v1/renders/${queued.body.id}/file`, { key: env.key, ...opts() });
    expect(expectError(file, 409, "CONFLICT").retryable).toBe(false);
  });

  it("cancels a processing render and stops its work: the single slot is free again within seconds", async () => {
    // why a minute's page: the bounds below then tell "stopped" from "went on" on any machine.
    const slow = await create({ document: idleDocument(60_000, "stopped") });
    expect(slow.status, slow.text).toBe(202);
    await waitFor(slow.body.id, ["processing"], 15_000);

    const cancelledAt = Date.now();
    const res = await cancel(slow.body.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ state: "cancelled", startedAt: expect.any(String), finishedAt: expect.any(String) }));
    expect(res.body.result).toBeUndefined();

    // With WORKER_CONCURRENCY 1 a new render can only run once the cancelled one's work stopped.
    const next = await create({ document: { html: "<p>next</p>" }, waitMs: 30_000 });
    expect(next.status, next.text).toBe(200);
    expect(next.body.state).toBe("succeeded");
    // Had the minute-long page gone on, the only slot could not have taken the next render before it ended.
    expect(Date.parse(next.body.startedAt) - Date.parse(res.body.startedAt!)).toBeLessThan(40_000);
    expect(Date.parse(next.body.startedAt) - cancelledAt).toBeLessThan(20_000);

    const after = await read(slow.body.id);
    expect(after.state).toBe("cancelled");
    expect(after.result).toBeUndefined();
    expect(after.error).toBeUndefined();
    expect(after.finishedAt).toBe(res.body.finishedAt);
    expect(storedFiles(slow.body.id)).toEqual([]);
  });

  it("answers 409 CONFLICT for a render that already ended, and leaves it as it was", async () => {
    const done = await create({ document: { html: "<p>done</p>" }, waitMs: 20_000 });
    expect(done.status, done.text).toBe(200);
    expect(done.body.state).toBe("succeeded");
    const e = expectError(await cancel(done.body.id), 409, "CONFLICT");
    expect(e.retryable).toBe(false);
    expect(e.message).toContain(done.body.id);
    const after = await read(done.body.id);
    expect(after.state).toBe("succeeded");
    expect(after.finishedAt).toBe(done.body.finishedAt);

    // A cancelled render cannot be cancelled again either.
    const queued = await create({ document: slotHoldingDocument("twice") });
    expect((await cancel(queued.body.id)).status).toBe(200);
    expectError(await cancel(queued.body.id), 409, "CONFLICT");
  });

  it("stops the work of a render cancelled just after its claim, while the worker's page is still being replaced", async () => {
    // A cancelled processing render leaves its browser page to be replaced; the next render is
    // claimed meanwhile and waits for that page. A cancel arriving in that wait must still stop it.
    const first = await create({ document: slotHoldingDocument("first") });
    await waitFor(first.body.id, ["processing"], 15_000);
    const second = await create({ document: idleDocument(60_000, "second") });
    expect(second.body.state).toBe("queued");
    expect((await cancel(first.body.id)).status).toBe(200);
    let state = "queued";
    const deadline = Date.now() + 15_000;
    while (state === "queued" && Date.now() < deadline) state = (await read(second.body.id)).state; // no pause: the window is short
    expect(state).toBe("processing");
    const res = await cancel(second.body.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.state).toBe("cancelled");

    const cancelledAt = Date.now();
    const next = await create({ document: { html: "<p>next</p>" }, waitMs: 30_000 });
    const tookMs = Date.now() - cancelledAt;
    try {
      expect(next.status, `the next render waited ${tookMs} ms: the cancelled render's minute-long page went on`).toBe(200);
      expect(Date.parse(next.body.startedAt) - Date.parse(res.body.startedAt!)).toBeLessThan(40_000);
    } finally {
      await waitFor(next.body.id, ["succeeded", "failed", "cancelled"]); // leave the slot free for the next test
    }
    const after = await read(second.body.id);
    expect(after.state).toBe("cancelled");
    expect(after.result).toBeUndefined();
    expect(storedFiles(second.body.id)).toEqual([]);
  });

  it("answers 404 for an unknown id", async () => {
    expectError(await cancel("rnd_doesnotexist"), 404, "NOT_FOUND");
  });
});

/**
 * The shared test server: rows written directly (held under a live lease, so no worker takes
 * them) give every case a render to cancel, even for a revoked key or a suspended workspace.
 */
describe("POST /v1/renders/{id}/cancel: security", () => {
  const sharedCancel = (key: string | undefined, id: string) => api(`/v1/renders/${id}/cancel`, { method: "POST", key });

  securityCases({
    scope: "render:cancel",
    request: async (w, key) => sharedCancel(key, await heldRender(w.id)),
    crossWorkspace: async (w, other) => sharedCancel(w.key, await heldRender(other.id)),
  });

  it("leaves the render alone when refused: no scope, another workspace", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const mine = await heldRender(w.id);
    const theirs = await heldRender(other.id);
    const noCancel = await w.newKey(["render:create", "render:read"]);
    expect(expectError(await sharedCancel(noCancel.secret, mine), 403, "FORBIDDEN").message).toContain("render:cancel");
    expectError(await sharedCancel(w.key, theirs), 404, "NOT_FOUND");
    await sleep(50);
    expect((await api(`/v1/renders/${mine}`, { key: w.key })).body.state).toBe("processing");
    expect((await api(`/v1/renders/${theirs}`, { key: other.key })).body.state).toBe("processing");
    // The owner can still cancel it.
    expect((await sharedCancel(other.key, theirs)).body.state).toBe("cancelled");
  });
});
