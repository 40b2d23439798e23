import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db as appDb } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import * as schema from "@/lib/db/schema";
import { renders, workspaces } from "@/lib/db/schema";
import { privateDatabase, type PrivateDatabase } from "@/lib/testing/database";
import { createTestWorkspace } from "@/lib/testing/factories";
import { createRender, slowHtml, waitForState } from "@/lib/testing/renders";
import * as statements from "./statements";

/**
 * Fair turns (spec: Limits > Other limits): every workspace's first waiting render runs before any
 * workspace's second. First the claim order on a database of its own (no worker there), then the
 * real worker with one workspace's backlog and two others' single renders.
 */
let own: PrivateDatabase;

beforeAll(async () => {
  own = await privateDatabase("fair");
});
afterAll(async () => {
  await own?.close();
});

async function workspace(db: PrivateDatabase["db"]) {
  const id = newId("ws");
  await db.insert(workspaces).values({ id, name: id, maxActiveRenders: 1000, rendersPerMinute: 1000 });
  return id;
}

async function queue(db: PrivateDatabase["db"], workspaceId: string, label: string) {
  const id = newId("rnd");
  await statements.insertRender(db, { id, workspaceId, test: false, source: "document", format: "pdf", options: {} }, { document: { html: label } });
  return label;
}

describe("fair turns", () => {
  it("claims every workspace's first waiting render before any workspace's second, oldest first within a turn", async () => {
    const { db } = own;
    const [a, b, c] = [await workspace(db), await workspace(db), await workspace(db)];
    for (let i = 1; i <= 5; i++) await queue(db, a, `a${i}`);
    await queue(db, b, "b1");
    await queue(db, c, "c1");
    await queue(db, c, "c2");
    const order: string[] = [];
    const claim = async () => {
      const r = await statements.claimNextRender(db, 15_000);
      if (r) order.push((r.payload as { document: { html: string } }).document.html);
      return r;
    };
    // a1 is taken before the others arrive; then a newcomer joins the round of the lowest waiting turn.
    await claim();
    await queue(db, b, "b2");
    while (await claim());
    expect(order).toEqual(["a1", "b1", "c1", "a2", "c2", "b2", "a3", "a4", "a5"]);
  });

  it("gives renders one workspace queues at the same moment successive turns: the turn is read after admission's lock", async () => {
    const ws = await workspace(own.db);
    const connect = () => postgres(own.url, { max: 1, onnotice: () => {} });
    const [holder, first, second] = [connect(), connect(), connect()];
    try {
      let pending: Promise<Awaited<ReturnType<typeof statements.insertRender>>>[] = [];
      // The workspace's admission lock is held while both statements start (and take their
      // snapshots); they then pass it one after the other, as simultaneous requests do.
      await holder.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtextextended(${`folio.admission:${ws}`}, 0))`;
        pending = [first, second].map((client, i) =>
          statements.insertRender(drizzle({ client, schema }), { id: newId("rnd"), workspaceId: ws, test: false, source: "document", format: "pdf", options: {} }, { document: { html: `r${i}` } }),
        );
        for (let waiting = 0; waiting < 2; ) {
          await new Promise((r) => setTimeout(r, 20));
          const [row] = await tx<{ waiting: number }[]>`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`;
          waiting = row!.waiting;
        }
      });
      const turns = (await Promise.all(pending)).map((r) => r.turn).sort();
      expect(turns).toEqual([0, 1]);
    } finally {
      // why: the next tests read this database's queue.
      await own.db.update(renders).set({ state: "cancelled" }).where(eq(renders.workspaceId, ws));
      await Promise.all([holder.end(), first.end(), second.end()]);
    }
  });

  it("a workspace with nothing waiting joins the current round, not the end of another's backlog", async () => {
    const { db } = own;
    const [a, b] = [await workspace(db), await workspace(db)];
    for (let i = 1; i <= 6; i++) await queue(db, a, `a${i}`);
    const order: string[] = [];
    for (let i = 0; i < 3; i++) order.push(((await statements.claimNextRender(db, 15_000))!.payload as { document: { html: string } }).document.html);
    await queue(db, b, "b1");
    for (let r = await statements.claimNextRender(db, 15_000); r; r = await statements.claimNextRender(db, 15_000)) {
      order.push((r.payload as { document: { html: string } }).document.html);
    }
    expect(order).toEqual(["a1", "a2", "a3", "a4", "b1", "a5", "a6"]);
  });

  it("one workspace's backlog delays another's single render by at most one render per worker slot (real worker)", { timeout: 180_000 }, async () => {
    const slots = Number(inject("serverEnv").WORKER_CONCURRENCY ?? 0) || (await import("node:os")).availableParallelism();
    const big = await createTestWorkspace();
    const [b, c] = [await createTestWorkspace(), await createTestWorkspace()];
    await appDb().update(workspaces).set({ maxActiveRenders: 100, rendersPerMinute: 100 }).where(eq(workspaces.id, big.id));
    const backlog = await Promise.all(Array.from({ length: 40 }, (_, i) => createRender(big.key, { document: { html: slowHtml(60, `big ${i}`) } })));
    expect(backlog.every((r) => r.status < 300)).toBe(true);
    // When each single render was surely visible to the workers: its answer arrived. why not its
    // createdAt: that is its statement's start, and on a loaded machine the backlog's renders
    // claimed while the statement ran (before the single one existed for any worker) would count.
    const visibleAt = new Map<string, Date>();
    const queueSingle = async (key: string, html: string) => {
      const r = await createRender(key, { document: { html } });
      visibleAt.set(r.body.id, new Date());
      return r;
    };
    const singles = [await queueSingle(b.key, "<p>b</p>"), await queueSingle(c.key, "<p>c</p>")];
    for (const s of singles) expect(s.status).toBeLessThan(300);
    for (const r of backlog) await waitForState(big.key, r.body.id, undefined, { timeout: 120_000 });
    await waitForState(b.key, singles[0]!.body.id);
    await waitForState(c.key, singles[1]!.body.id);

    const rows = await appDb()
      .select({ id: renders.id, createdAt: renders.createdAt, startedAt: renders.startedAt, turn: renders.turn, attempts: renders.attempts })
      .from(renders)
      .where(sql`${renders.workspaceId} in (${big.id}, ${b.id}, ${c.id})`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const bigRows = backlog.map((r) => byId.get(r.body.id)!);
    for (const s of singles) {
      const single = byId.get(s.body.id)!;
      // The backlog's renders still waiting when the single one was queued...
      const waiting = bigRows.filter((r) => r.startedAt! > visibleAt.get(s.body.id)!);
      expect(waiting.length).toBeGreaterThan(slots * 2); // the backlog was still long: the test means something
      // ...of which at most one per worker slot (and one per single render queued before it) started first.
      const before = waiting.filter((r) => r.startedAt! < single.startedAt!);
      const seen = (r: (typeof rows)[number]) => `${r.id} turn ${r.turn} attempts ${r.attempts} created ${r.createdAt.toISOString()} started ${r.startedAt?.toISOString()}`;
      expect(before.length, `visible at ${visibleAt.get(s.body.id)!.toISOString()}; single ${seen(single)}; started before it: ${before.map(seen).join("; ")}`).toBeLessThanOrEqual(slots + 1);
    }
  });
});
