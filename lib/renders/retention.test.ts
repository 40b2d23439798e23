import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { renderInputs, renders, usageDays } from "@/lib/db/schema";
import { boss, stopBoss } from "@/lib/jobs/boss";
import { queues } from "@/lib/jobs/catalog";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { createRender, download } from "@/lib/testing/renders";
import { purgeExpiredRenders } from "./processing";

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
    expect(fs.existsSync(old.file)).toBe(false);
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
    expect(fs.existsSync(r.file)).toBe(false);
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
