/**
 * npm run bench:admission: what render admission and the fair-turn claim cost, on the embedded
 * database (docs/architecture.md, Render admission and Fair turns). No web server or worker: the
 * statements themselves, one at a time, after a warm-up.
 *
 * - Admission: p50 of insertRender with admission (folio_admit_renders in its statement) and
 *   without (admitted = true), in a workspace with large allowances and 200 renders in its minute.
 *   The difference is what admission adds to POST /v1/renders. Target: under 5 ms p50.
 * - Fair claim: 1,000 workspaces each with 3 queued renders; p50 of claimNextRender, and EXPLAIN
 *   ANALYZE of the claim (in a transaction rolled back). Target: under 2 ms p50. Then the same claim
 *   with one workspace's queue only (the common case), for comparison.
 *
 * Run it on a quiet machine (uptime's load under 3).
 *   npm run bench:admission            1,000 workspaces
 *   npm run bench:admission -- --quick 100 workspaces, fewer samples
 */
import { benchDatabase } from "./database";

const quick = process.argv.includes("--quick");
const WORKSPACES = quick ? 100 : 1_000;
const SAMPLES = quick ? 50 : 300;
process.env.LOG_LEVEL ??= "warn";

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const path = await import("node:path");
  const bench = await benchDatabase(path.join(__dirname, "..", ".data", "bench-admission"), "admission");
  try {
    const { db } = await import("../lib/db/client");
    const { newId } = await import("../lib/db/ids");
    const { workspaces } = await import("../lib/db/schema");
    const statements = await import("../lib/renders/statements");
    const { sql } = await import("drizzle-orm");

    const workspace = async () => {
      const id = newId("ws");
      await db().insert(workspaces).values({ id, name: id, maxActiveRenders: 100_000, rendersPerMinute: 1_000_000 });
      return id;
    };
    const insert = (workspaceId: string, admitted: boolean) =>
      statements.insertRender(db(), { id: newId("rnd"), workspaceId, test: false, source: "document", format: "pdf", options: {} }, { document: { html: "<p>x</p>" } }, admitted);
    const time = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      await f();
      return performance.now() - t;
    };

    // Admission
    const ws = await workspace();
    for (let i = 0; i < 200; i++) await insert(ws, false);
    const withAdmission: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      withAdmission.push(await time(() => insert(ws, false)));
      without.push(await time(() => insert(ws, true)));
    }
    console.log(`insertRender p50: with admission ${p50(withAdmission).toFixed(2)} ms, without ${p50(without).toFixed(2)} ms, admission adds ${(p50(withAdmission) - p50(without)).toFixed(2)} ms`);
    await db().execute(sql`delete from renders`);

    // Fair claim with many workspaces
    const ids: string[] = [];
    for (let i = 0; i < WORKSPACES; i++) ids.push(await workspace());
    for (let round = 0; round < 3; round++) for (const id of ids) await insert(id, true);
    let captured: { "QUERY PLAN": string }[] = [];
    await db()
      .transaction(async (tx) => {
        captured = await tx.execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) update renders set state = 'processing', attempts = attempts + 1, started_at = now()
          where id = (select id from renders where state = 'queued' order by turn, created_at, id limit 1 for update skip locked) returning id`);
        tx.rollback();
      })
      .catch(() => {});
    const claims: number[] = [];
    for (let i = 0; i < Math.min(SAMPLES, WORKSPACES * 3 - 1); i++) claims.push(await time(() => statements.claimNextRender(db(), 15_000)));
    console.log(`claimNextRender p50 with ${WORKSPACES} workspaces queued (3 each): ${p50(claims).toFixed(2)} ms`);
    console.log("EXPLAIN ANALYZE of the claim:");
    for (const r of captured) console.log(`  ${r["QUERY PLAN"]}`);
    await db().execute(sql`delete from renders`);

    // The common case: one workspace
    const one = await workspace();
    for (let i = 0; i < SAMPLES + 10; i++) await insert(one, true);
    const single: number[] = [];
    for (let i = 0; i < SAMPLES; i++) single.push(await time(() => statements.claimNextRender(db(), 15_000)));
    console.log(`claimNextRender p50 with one workspace queued: ${p50(single).toFixed(2)} ms`);
  } finally {
    await bench.drop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
