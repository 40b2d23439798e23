import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { renderInputs, renders, usageDays } from "@/lib/db/schema";
import { boss, stopBoss } from "@/lib/jobs/boss";
import { queues } from "@/lib/jobs/catalog";
import { newId } from "@/lib/db/ids";
import { fileStore } from "@/lib/files/store";
import { privateDatabase } from "@/lib/testing/database";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { createRender, download, heldRender } from "@/lib/testing/renders";
import { renderFileKey } from "./files";
import { purgeExpiredRenders } from "./retention";
import { deleteExpiredRenders } from "./repository";

afterAll(async () => {
  await stopBoss({ graceful: false, timeout: 1000 });
});

/** A succeeded render of the workspace, with where its file lives on the shared server's disk. */
async function succeededRender(w: TestWorkspace, text: string) {
  const res = await createRender(w.key, { document: { html: `<p>${text}</p>` }, waitMs: 20_000 });
  expect(res.status, res.text).toBe(200);
  expect(res.body.state).toBe("succeeded");
  const [row] = await db().select({ fileKey: renders.fileKey }).from(renders).where(eq(renders.id, res.body.id));
  const file = path.join(inject("dataDir"), "files", row!.fileKey!);
  expect(fs.existsSync(file), file).toBe(true);
  return { id: res.body.id as string, downloadUrl: res.body.result.downloadUrl as string, file, outputBytes: res.body.result.outputBytes as number };
}

/** The worker deletes the files of deleted renders in a job of their own, moments later. */
const expectGone = (file: string) => expect.poll(() => fs.existsSync(file), { timeout: 15_000, interval: 100 }).toBe(false);

const ageBy = (id: string, days: number) =>
  db()
    .update(renders)
    .set({ createdAt: sql`now() - ${`${Math.round(days * 24)} hours`}::interval` })
    .where(eq(renders.id, id));

describe("retention", () => {
  it("deletes renders older than RETENTION_DAYS with their files and inputs, keeps newer ones and the usage", async () => {
    expect(config().RETENTION_DAYS).toBe(30);
    const w = await createTestWorkspace();
    const old = await succeededRender(w, "old");
    const young = await succeededRender(w, "twenty-nine days");
    const fresh = await succeededRender(w, "fresh");
    await ageBy(old.id, 31);
    await ageBy(young.id, 29);
    const usageBefore = await db().select().from(usageDays).where(eq(usageDays.workspaceId, w.id));
    expect(usageBefore.reduce((n, d) => n + d.rendersSucceeded, 0)).toBe(3);

    // A link handed out before the purge (valid for five minutes).
    expect((await download(old.downloadUrl)).status).toBe(200);

    expect(await purgeExpiredRenders()).toBeGreaterThanOrEqual(1);

    expectError(await api(`/v1/renders/${old.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/renders/${old.id}/file`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/renders/${old.id}/cancel`, { key: w.key, method: "POST" }), 404, "NOT_FOUND");
    await expectGone(old.file);
    expect(old.downloadUrl.startsWith(inject("baseUrl"))).toBe(true);
    expectError(await api(new URL(old.downloadUrl).pathname), 404, "NOT_FOUND");
    expect(await db().select().from(renderInputs).where(eq(renderInputs.renderId, old.id))).toEqual([]);
    const list = await api("/v1/renders?limit=100", { key: w.key });
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([fresh.id, young.id]);

    // Newer than the cutoff: untouched.
    for (const r of [young, fresh]) {
      const got = await api(`/v1/renders/${r.id}`, { key: w.key });
      expect(got.status).toBe(200);
      expect(got.body.state).toBe("succeeded");
      expect(fs.existsSync(r.file)).toBe(true);
      const file = await download(got.body.result.downloadUrl);
      expect(file.status).toBe(200);
      expect(file.bytes.byteLength).toBe(r.outputBytes);
    }

    // spec: the usage record is kept after old renders are deleted.
    const usageAfter = await db().select().from(usageDays).where(eq(usageDays.workspaceId, w.id));
    expect(usageAfter).toEqual(usageBefore);
  });

  it("honours the cutoff: a render is deleted only once it is older than RETENTION_DAYS", async () => {
    const w = await createTestWorkspace();
    const r = await succeededRender(w, "boundary");
    await ageBy(r.id, 30 - 1 / 24); // an hour short of the retention period: kept
    await purgeExpiredRenders();
    expect((await api(`/v1/renders/${r.id}`, { key: w.key })).status).toBe(200);
    expect(fs.existsSync(r.file)).toBe(true);
    await ageBy(r.id, 30 + 1 / 24); // an hour past it: deleted
    await purgeExpiredRenders();
    expectError(await api(`/v1/renders/${r.id}`, { key: w.key }), 404, "NOT_FOUND");
    await expectGone(r.file);
  });

  it("deletes only ended renders: a queued or processing render stays, whatever its age", async () => {
    // A database no worker drains, so the queued render stays queued.
    const own = await privateDatabase("retention");
    try {
      const ids = { queued: newId("rnd"), processing: newId("rnd"), failed: newId("rnd") };
      const old = sql`now() - interval '45 days'`;
      await own.db.insert(renders).values([
        { id: ids.queued, workspaceId: own.workspaceId, source: "document", format: "pdf", createdAt: old },
        { id: ids.processing, workspaceId: own.workspaceId, source: "document", format: "pdf", state: "processing", attempts: 1, createdAt: old },
        { id: ids.failed, workspaceId: own.workspaceId, source: "document", format: "pdf", state: "failed", attempts: 1, createdAt: old },
      ]);
      const deleted = await deleteExpiredRenders(own.db, new Date(Date.now() - 30 * 86_400_000), 500);
      expect(deleted.map((r) => r.id)).toEqual([ids.failed]);
      const left = await own.db.select({ id: renders.id, state: renders.state }).from(renders).orderBy(renders.state);
      expect(left).toEqual([
        { id: ids.processing, state: "processing" },
        { id: ids.queued, state: "queued" },
      ]);
    } finally {
      await own.close();
    }

    // And the job itself, on the shared server: a render a worker holds stays readable.
    const w = await createTestWorkspace();
    const held = await heldRender(w.id);
    await ageBy(held, 45);
    await purgeExpiredRenders();
    expect((await api(`/v1/renders/${held}`, { key: w.key })).body).toMatchObject({ id: held, state: "processing" });
  });

  it("deletes the files of every attempt, also those stored by attempts whose worker died", async () => {
    const w = await createTestWorkspace();
    // The first two attempts stored their files, then their workers died; the third succeeded.
    const r = { id: newId("rnd"), workspaceId: w.id, format: "pdf" as const };
    const keys = [1, 2, 3].map((attempt) => renderFileKey(r, attempt));
    for (const key of keys) await fileStore().put(key, new TextEncoder().encode("%PDF-1.7 attempt"), "application/pdf");
    await db().insert(renders).values({
      ...r, source: "document", state: "succeeded", attempts: 3, fileKey: keys[2], pageCount: 1, outputBytes: 16, durationMs: 5,
      createdAt: sql`now() - interval '31 days'`, finishedAt: sql`now() - interval '31 days'`,
    });
    const files = keys.map((key) => path.join(inject("dataDir"), "files", key));
    for (const f of files) expect(fs.existsSync(f)).toBe(true);

    await purgeExpiredRenders();
    expectError(await api(`/v1/renders/${r.id}`, { key: w.key }), 404, "NOT_FOUND");
    for (const f of files) await expectGone(f);
  });

  it("runs as a scheduled job of the worker", async () => {
    const w = await createTestWorkspace();
    const r = await succeededRender(w, "purged by the worker"); // the worker is up: it has scheduled its jobs
    const scheduled = await db().execute<{ name: string; cron: string }>(sql`select name, cron from pgboss.schedule where name = 'retention'`);
    expect([...scheduled]).toEqual([{ name: "retention", cron: queues.retention.cron }]);

    // The worker's retention handler purges when its job runs.
    await ageBy(r.id, 45);
    await (await boss()).send("retention", {});
    await expect.poll(async () => (await api(`/v1/renders/${r.id}`, { key: w.key })).status, { timeout: 15_000, interval: 200 }).toBe(404);
    await expect.poll(() => fs.existsSync(r.file), { timeout: 5_000 }).toBe(false);
  });
});
