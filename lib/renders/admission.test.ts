import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { renders, workspaces } from "@/lib/db/schema";
import { insertRenderRows } from "@/lib/renders/repository";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { createRender, slotHoldingDocument } from "@/lib/testing/renders";
import { startWebServer, type WebServer } from "@/lib/testing/server";

/**
 * Render admission (spec: Limits > Render allowances, Monthly documents, Test renders) through the
 * real API. Rows in the past are written directly with their created_at, so windows and month or
 * day boundaries are exact without waiting.
 */

type Seed = { state: "queued" | "processing" | "succeeded" | "failed" | "cancelled"; createdAt: Date; test?: boolean };

async function seed(workspaceId: string, rows: Seed[]) {
  await insertRenderRows(
    db(),
    rows.map((r) => ({
      id: newId("rnd"),
      workspaceId,
      source: "document",
      format: "pdf" as const,
      state: r.state,
      test: r.test ?? false,
      attempts: r.state === "queued" ? 0 : 1,
      createdAt: r.createdAt,
      updatedAt: r.createdAt,
      // why: a processing row holds an hour's lease so no reaper ends it; queued rows are never left queued here (workers would take them).
      leaseExpiresAt: r.state === "processing" ? new Date(Date.now() + 3_600_000) : undefined,
      finishedAt: ["succeeded", "failed", "cancelled"].includes(r.state) ? r.createdAt : undefined,
    })),
  );
}

async function setLimits(id: string, limits: Partial<typeof workspaces.$inferInsert>) {
  await db().update(workspaces).set(limits).where(eq(workspaces.id, id));
}

const countRows = async (workspaceId: string) => (await db().select({ n: sql<number>`count(*)::int` }).from(renders).where(eq(renders.workspaceId, workspaceId)))[0]!.n;

const doc = (html = "<p>admitted</p>", extra: Record<string, unknown> = {}) => ({ document: { html }, ...extra });
const ago = (ms: number) => new Date(Date.now() - ms);

describe("render allowances", () => {
  it("admits exactly rendersPerMinute of 50 simultaneous creates; the others get 429 with Retry-After until the oldest leaves the window", async () => {
    const w = await createTestWorkspace();
    await setLimits(w.id, { maxActiveRenders: 1000, rendersPerMinute: 10 });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => createRender(w.key, doc())));
    // The oldest admitted render leaves the window 60 s after it was created, so within the time all 50 took.
    const soonest = 60 - Math.ceil((Date.now() - started) / 1000);
    const admitted = answers.filter((a) => a.status === 201 || a.status === 202 || a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(expectError(r, 429, "RATE_LIMITED").retryable).toBe(true);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(soonest);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    }
    expect(await countRows(w.id)).toBe(10);
  });

  let second: WebServer | undefined;
  afterAll(async () => {
    await second?.stop();
  });

  it("is exact with two web processes sharing one database: 50 creates split between them admit exactly 10", async () => {
    second = await startWebServer(inject("serverEnv"), inject("dataDir"));
    const w = await createTestWorkspace();
    await setLimits(w.id, { maxActiveRenders: 1000, rendersPerMinute: 10 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createRender(w.key, doc(), i % 2 ? { baseUrl: second!.baseUrl } : {})),
    );
    expect(answers.filter((a) => a.status < 300)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(40);
    // Each process answered its half (which of them admits depends on arrival): the count is in the database.
    expect(answers.every((a) => a.status < 300 || a.status === 429)).toBe(true);
    expect(await countRows(w.id)).toBe(10);
  }, 120_000);

  it("admits exactly maxActiveRenders of 50 simultaneous creates, with Retry-After 1, and frees a slot the moment a render ends", async () => {
    const w = await createTestWorkspace();
    await setLimits(w.id, { maxActiveRenders: 10, rendersPerMinute: 1000 });
    // why: the admitted renders must stay active while the burst runs; they are cancelled after.
    const answers = await Promise.all(Array.from({ length: 50 }, () => createRender(w.key, { document: slotHoldingDocument() })));
    const admitted = answers.filter((a) => a.status < 300);
    expect(admitted).toHaveLength(10);
    for (const r of answers.filter((a) => a.status === 429)) expect(r.headers.get("retry-after")).toBe("1");
    expect(answers.filter((a) => a.status === 429)).toHaveLength(40);

    const refused = await createRender(w.key, doc());
    expectError(refused, 429, "RATE_LIMITED");
    const cancel = await api(`/v1/renders/${admitted[0]!.body.id}/cancel`, { key: w.key, method: "POST" });
    expect(cancel.status).toBe(200);
    const next = await createRender(w.key, { document: slotHoldingDocument() });
    expect(next.status).toBeLessThan(300);
    for (const id of [...admitted.slice(1).map((a) => a.body.id), next.body.id]) await api(`/v1/renders/${id}/cancel`, { key: w.key, method: "POST" });
  });

  it("counts every render created in the rolling minute (failed and cancelled too) and answers Retry-After until enough of them leave it", async () => {
    const w = await createTestWorkspace();
    await setLimits(w.id, { rendersPerMinute: 3 });
    const seeded = Date.now();
    await seed(w.id, [
      { state: "failed", createdAt: ago(70_000) }, // outside the window
      { state: "cancelled", createdAt: ago(45_000) },
      { state: "failed", createdAt: ago(30_000) },
      { state: "succeeded", createdAt: ago(10_000) },
      { state: "succeeded", createdAt: ago(20_000), test: true }, // test renders have their own allowance
    ]);
    const refused = await createRender(w.key, doc());
    expectError(refused, 429, "RATE_LIMITED");
    const retry = Number(refused.headers.get("retry-after"));
    // why the bound moves: the 15 s the oldest row has left shrink by however long seeding and asking took.
    expect(retry).toBeGreaterThanOrEqual(15 - Math.ceil((Date.now() - seeded) / 1000));
    expect(retry).toBeLessThanOrEqual(16);
    expect(await countRows(w.id)).toBe(5);

    // The oldest in the window leaves it: one slot frees.
    await db().update(renders).set({ createdAt: ago(61_000) }).where(and(eq(renders.workspaceId, w.id), eq(renders.state, "cancelled")));
    expect((await createRender(w.key, doc())).status).toBeLessThan(300);
    expectError(await createRender(w.key, doc()), 429, "RATE_LIMITED");
  });

  it("lowering maxActiveRenders lets accepted renders finish and refuses new ones until below the new value", async () => {
    const w = await createTestWorkspace();
    await seed(w.id, [
      { state: "processing", createdAt: ago(120_000) },
      { state: "processing", createdAt: ago(120_000) },
      { state: "processing", createdAt: ago(120_000) },
    ]);
    await setLimits(w.id, { maxActiveRenders: 2 });
    const refused = await createRender(w.key, doc());
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("1");
    const states = await db().select({ state: renders.state }).from(renders).where(eq(renders.workspaceId, w.id));
    expect(states.map((s) => s.state)).toEqual(["processing", "processing", "processing"]);
    await db().update(renders).set({ state: "succeeded", leaseExpiresAt: null }).where(eq(renders.workspaceId, w.id));
    expect((await createRender(w.key, doc())).status).toBeLessThan(300);
  });

  it("counts nothing for an idempotent repeat or a refused request", async () => {
    const w = await createTestWorkspace();
    await setLimits(w.id, { rendersPerMinute: 1 });
    expectError(await createRender(w.key, { document: {} }), 400, "BAD_REQUEST");
    const headers = { "idempotency-key": "admission-repeat" };
    const first = await createRender(w.key, doc(), { headers });
    expect(first.status).toBeLessThan(300);
    const repeat = await createRender(w.key, doc(), { headers });
    expect(repeat.status).toBeLessThan(300);
    expect(repeat.body.id).toBe(first.body.id);
    expectError(await createRender(w.key, doc()), 429, "RATE_LIMITED");
    expect(await countRows(w.id)).toBe(1);
  });
});

describe("monthly documents", () => {
  it("counts this UTC month's queued, processing and succeeded non-test renders; 402 with nothing created when used up", async () => {
    const w = await createTestWorkspace();
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    await seed(w.id, [
      { state: "succeeded", createdAt: monthStart }, // the first instant of the month counts
      { state: "processing", createdAt: ago(1000) },
      { state: "failed", createdAt: ago(120_000) },
      { state: "cancelled", createdAt: ago(120_000) },
      { state: "succeeded", createdAt: new Date(monthStart.getTime() - 1) }, // last month
      { state: "succeeded", createdAt: ago(120_000), test: true },
    ]);
    await setLimits(w.id, { documentsPerMonth: 3 });
    expect((await createRender(w.key, doc())).status).toBeLessThan(300);
    const before = await countRows(w.id);
    const refused = await createRender(w.key, doc());
    const e = expectError(refused, 402, "QUOTA_EXCEEDED");
    expect(e.retryable).toBe(false);
    expect(e.message).toContain("documentsPerMonth");
    expect(await countRows(w.id)).toBe(before);
    // Test renders never count toward the documents, and are still admitted.
    expect((await createRender(w.key, doc("<p>t</p>", { test: true }))).status).toBeLessThan(300);
  });
});

describe("test renders", () => {
  it("have their own allowance: at most 10 (or the workspace's lower maxActiveRenders) at once, apart from other renders", async () => {
    const w = await createTestWorkspace();
    await setLimits(w.id, { maxActiveRenders: 4 });
    await seed(w.id, Array.from({ length: 4 }, () => ({ state: "processing" as const, createdAt: ago(120_000), test: true })));
    const refused = await createRender(w.key, doc("<p>t</p>", { test: true }));
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await createRender(w.key, doc())).status).toBeLessThan(300);
  });

  it("at most 10 in a rolling minute even when the workspace allows more", async () => {
    const w = await createTestWorkspace();
    const seeded = Date.now();
    await seed(w.id, Array.from({ length: 10 }, (_, i) => ({ state: "succeeded" as const, createdAt: ago(50_000 - i * 1000), test: true })));
    const refused = await createRender(w.key, doc("<p>t</p>", { test: true }));
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(10 - Math.ceil((Date.now() - seeded) / 1000));
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(11);
  });

  it("testRendersPerDay answers 402 until 00:00 UTC; yesterday's do not count", async () => {
    const w = await createTestWorkspace();
    const now = new Date();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    await seed(w.id, [
      { state: "failed", createdAt: dayStart, test: true },
      { state: "succeeded", createdAt: new Date(dayStart.getTime() - 1), test: true },
      { state: "succeeded", createdAt: new Date(dayStart.getTime() - 3_600_000), test: true },
    ]);
    await setLimits(w.id, { testRendersPerDay: 2 });
    expect((await createRender(w.key, doc("<p>t</p>", { test: true }))).status).toBeLessThan(300);
    const before = await countRows(w.id);
    const e = expectError(await createRender(w.key, doc("<p>t</p>", { test: true })), 402, "QUOTA_EXCEEDED");
    expect(e.message).toContain("00:00 UTC");
    expect(await countRows(w.id)).toBe(before);
    expect((await createRender(w.key, doc())).status).toBeLessThan(300);
  });
});

describe("hosted plans", () => {
  it("are applied by the database function as the floor of the stored allowances", async () => {
    const w = await createTestWorkspace();
    await setLimits(w.id, { plan: "starter", maxActiveRenders: 1, rendersPerMinute: 1 });
    await seed(w.id, Array.from({ length: 29 }, () => ({ state: "processing" as const, createdAt: ago(120_000) })));
    const admit = async (hosted: boolean) =>
      (await db().execute<{ r: { code: string } | null }>(sql`select folio_admit_renders(${w.id}, 1, 0, ${hosted}) as r`))[0]!.r;
    expect(await admit(true)).toBeNull();
    expect(await admit(false)).toMatchObject({ code: "RATE_LIMITED" });
    await setLimits(w.id, { plan: "free" });
    expect(await admit(true)).toMatchObject({ code: "RATE_LIMITED" });
  });
});

describe("suspended workspaces", () => {
  it("refuse every render and every key request with 403", async () => {
    const w = await createTestWorkspace();
    await w.suspend();
    expectError(await createRender(w.key, doc()), 403, "FORBIDDEN");
    expectError(await api("/v1/renders", { key: w.key }), 403, "FORBIDDEN");
    const admit = (await db().execute<{ r: { code: string } | null }>(sql`select folio_admit_renders(${w.id}, 1, 0, false) as r`))[0]!.r;
    expect(admit).toMatchObject({ code: "FORBIDDEN" });
    expect(await countRows(w.id)).toBe(0);
  });
});
