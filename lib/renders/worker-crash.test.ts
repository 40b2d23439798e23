import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/db/ids";
import { startEnvironment, type Environment } from "@/lib/testing/environment";
import { api } from "@/lib/testing/http";
import { logLine } from "@/lib/testing/logs";
import { pdfText } from "@/lib/testing/pdf";
import { createRender, download, idleDocument, waitForState } from "@/lib/testing/renders";
import { alive, type Started } from "@/lib/testing/server";
import { renderFileKey } from "./files";
import { MAX_ATTEMPTS } from "./processing";

// A Folio of its own with one render slot: these tests kill its worker and its browser. Its lease
// is 3 s (RENDER_LEASE_MS; 15 s by default): a killed worker's render comes back in seconds.
let env: Environment;
let sql: postgres.Sql;
/** The environment's live worker (replaced after a kill). */
let worker: Started;
/** Chromium processes of killed workers, ended in afterAll if they outlived their worker. */
const leftovers = new Set<number>();

beforeAll(async () => {
  env = await startEnvironment({ WORKER_CONCURRENCY: "1", RENDER_LEASE_MS: "3000" });
  worker = env.worker;
  sql = postgres(env.databaseUrl, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await sql?.end({ timeout: 5 });
  await env?.stop();
});

const opts = () => ({ baseUrl: env.baseUrl });

type Proc = { pid: number; ppid: number; args: string };

/** Every process below `pid`, with its command line (one `ps` snapshot). */
function descendants(pid: number): Proc[] {
  const all: Proc[] = execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .flatMap((m) => (m ? [{ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }] : []));
  const out: Proc[] = [];
  const walk = (p: number) => {
    for (const c of all.filter((x) => x.ppid === p)) {
      out.push(c);
      walk(c.pid);
    }
  };
  walk(pid);
  return out;
}

const isChromium = (p: Proc) => /chrom|headless_shell/i.test(p.args.split(" ")[0]!);

async function renderRow(id: string) {
  const [row] = await sql<{ state: string; attempts: number; workspaceId: string; leaseExpiresAt: Date | null; finishedAt: Date | null }[]>`
    select state, attempts, workspace_id as "workspaceId", lease_expires_at as "leaseExpiresAt", finished_at as "finishedAt"
    from renders where id = ${id}`;
  return row!;
}

/** Whether the render's input (document and data) is still stored. */
async function hasInput(id: string) {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from render_inputs where render_id = ${id}`;
  return row!.n > 0;
}

async function usageTotals(workspaceId: string) {
  const [row] = await sql<{ succeeded: number; failed: number; cancelled: number }[]>`
    select coalesce(sum(renders_succeeded), 0)::int as succeeded, coalesce(sum(renders_failed), 0)::int as failed,
           coalesce(sum(renders_cancelled), 0)::int as cancelled
    from usage_days where workspace_id = ${workspaceId}`;
  return row!;
}

/** Creates a render whose page stays open `ms` (idle) and returns once a worker is rendering it. */
async function startSlowRender(ms: number, text: string) {
  const res = await createRender(env.key, { document: idleDocument(ms, text), waitMs: 0 }, opts());
  expect(res.status, res.text).toBe(202);
  const id = res.body.id as string;
  // The first render also waits for the worker to start (migrations, browser launch).
  await waitForState(env.key, id, ["processing"], { ...opts(), timeout: 45_000 });
  return id;
}

async function killWorker(w: Started) {
  const browsers = descendants(w.proc.pid!).filter(isChromium);
  for (const p of browsers) leftovers.add(p.pid);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => w.proc.once("exit", (_code, signal) => resolve(signal)));
  w.proc.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  return browsers;
}

describe("a render whose worker dies", () => {
  let workspaceId: string;

  it("is taken back after a SIGKILL, rendered by another worker, and ends exactly once", { timeout: 120_000 }, async () => {
    const id = await startSlowRender(3000, "survived a killed worker");
    workspaceId = (await renderRow(id)).workspaceId;
    // Let the page open: the kill lands mid-render.
    await new Promise((r) => setTimeout(r, 500));
    expect(await renderRow(id)).toMatchObject({ state: "processing", attempts: 1 });
    // The worker claims for RENDER_LEASE_MS (3 s here), not the default 15 s.
    const [lease] = await sql<{ ms: number }[]>`select (extract(epoch from lease_expires_at - now()) * 1000)::int as ms from renders where id = ${id}`;
    expect(lease!.ms).toBeGreaterThan(0);
    expect(lease!.ms).toBeLessThanOrEqual(3000);

    await killWorker(worker);
    // The dead worker's last renewal: nobody renews it now.
    const { leaseExpiresAt } = await renderRow(id);
    expect(leaseExpiresAt).toBeInstanceOf(Date);
    worker = env.startWorker();

    // lease (3 s) + reaper period (1 s) + the render again (3 s) + worker start.
    const ended = await waitForState(env.key, id, undefined, { ...opts(), timeout: 60_000 });
    expect(ended.state, JSON.stringify(ended)).toBe("succeeded");
    // Taken back by the new worker, and not before the dead worker's lease expired: the render
    // was not taken from a live worker. The log line's time against the database's lease: both
    // this machine's clock.
    const takenBack = await logLine(worker.logFile, (l) => l.renderId === id && l.msg === "took back a render whose worker stopped");
    expect(takenBack).toMatchObject({ level: 40, attempt: 1, state: "queued" });
    expect(Date.parse((takenBack as { time?: string }).time ?? "")).toBeGreaterThanOrEqual(leaseExpiresAt!.getTime());

    expect(await renderRow(id)).toMatchObject({ state: "succeeded", attempts: 2, leaseExpiresAt: null, finishedAt: expect.any(Date) });
    expect(await hasInput(id)).toBe(false);
    const file = await download(ended.result!.downloadUrl!);
    expect(file.status).toBe(200);
    expect(pdfText(file.bytes).replace(/\s+/g, "")).toContain("survivedakilledworker");

    // It ended once: one succeeded render in the usage record, nothing else.
    expect(await usageTotals(workspaceId)).toEqual({ succeeded: 1, failed: 0, cancelled: 0 });
    // The dead worker's pg-boss job and the reaper's new job do not end it again a moment later.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await usageTotals(workspaceId)).toEqual({ succeeded: 1, failed: 0, cancelled: 0 });
    const again = await api(`/v1/renders/${id}`, { ...opts(), key: env.key });
    expect(again.body).toMatchObject({ state: "succeeded", finishedAt: (ended as { finishedAt?: string }).finishedAt });
  });

  it("leaves no Chromium running after its worker was killed", { timeout: 30_000 }, async () => {
    // The previous test killed a worker; its browser must not outlive it.
    expect(leftovers.size).toBeGreaterThan(0);
    await expect.poll(() => [...leftovers].filter(alive), { timeout: 15_000, interval: 250 }).toEqual([]);
  });

  it("is retried when its browser is killed mid-render, and the worker keeps rendering", { timeout: 90_000 }, async () => {
    const id = await startSlowRender(3000, "survived a killed browser");
    await new Promise((r) => setTimeout(r, 500));
    const chromium = descendants(worker.proc.pid!).filter(isChromium);
    expect(chromium.length, "the worker's Chromium processes").toBeGreaterThan(0);
    // The browser first (its renderers go with it), then anything left of it. The browser is the
    // Chromium process whose parent is not one (a launcher script may stand between it and the worker).
    const main = chromium.filter((p) => !chromium.some((c) => c.pid === p.ppid));
    expect(main.length).toBeGreaterThan(0);
    for (const p of [...main, ...chromium]) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // already gone with its parent
      }
    }

    const ended = await waitForState(env.key, id, undefined, { ...opts(), timeout: 30_000 });
    // spec: transient failures such as a browser crash are retried automatically.
    expect(ended.state, JSON.stringify(ended)).toBe("succeeded");
    expect(await renderRow(id)).toMatchObject({ state: "succeeded", attempts: 2, leaseExpiresAt: null });
    expect(await hasInput(id)).toBe(false);
    expect(await logLine(worker.logFile, (l) => l.renderId === id && l.msg === "render attempt failed; retrying")).toMatchObject({ level: 40, attempt: 1, state: "queued" });
    const file = await download(ended.result!.downloadUrl!);
    expect(pdfText(file.bytes).replace(/\s+/g, "")).toContain("survivedakilledbrowser");

    // The worker relaunched its browser: the next render just works, first time.
    const next = await createRender(env.key, { document: { html: "<p>after the crash</p>" }, waitMs: 20_000 }, opts());
    expect(next.status, next.text).toBe(200);
    expect(next.body.state).toBe("succeeded");
    expect(await renderRow(next.body.id)).toMatchObject({ attempts: 1 });
    expect(alive(worker.proc.pid!)).toBe(true);
  });

  it("fails with render_process_exited when its page's render process dies, and the worker keeps rendering", { timeout: 60_000 }, async () => {
    const id = await startSlowRender(3000, "renderer killed");
    await new Promise((r) => setTimeout(r, 500));
    const renderers = descendants(worker.proc.pid!).filter((p) => isChromium(p) && p.args.includes("--type=renderer"));
    expect(renderers.length, "the worker's Chromium render processes").toBeGreaterThan(0);
    for (const p of renderers) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // a spare renderer that exited meanwhile
      }
    }

    // The document's own process died (as when it runs out of memory): a final failure, not retried.
    const ended = await waitForState(env.key, id, undefined, { ...opts(), timeout: 20_000 });
    expect(ended).toMatchObject({ state: "failed", error: { code: "RENDER_FAILED", diagnostic: "render_process_exited" } });
    expect(await renderRow(id)).toMatchObject({ state: "failed", attempts: 1, leaseExpiresAt: null });

    const next = await createRender(env.key, { document: { html: "<p>after the renderer</p>" }, waitMs: 20_000 }, opts());
    expect(next.body.state, next.text).toBe("succeeded");
  });

  it(`fails with render_process_exited once abandoned ${MAX_ATTEMPTS} times`, { timeout: 30_000 }, async () => {
    // A render whose third attempt's worker died: processing, lease expired, no attempts left.
    const id = newId("rnd");
    await sql.begin(async (tx) => {
      await tx`insert into renders (id, workspace_id, state, source, format, attempts, lease_expires_at, started_at, created_at, updated_at)
               values (${id}, ${workspaceId}, 'processing', 'document', 'pdf', ${MAX_ATTEMPTS}, now() - interval '1 second',
                       now() - interval '1 minute', now() - interval '1 minute', now() - interval '1 minute')`;
      await tx`insert into render_inputs (render_id, payload) values (${id}, ${tx.json({ document: { html: "<p>never again</p>" } })})`;
    });
    const before = await usageTotals(workspaceId);

    const startedAt = Date.now();
    const ended = await waitForState(env.key, id, undefined, { ...opts(), timeout: 25_000 });
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(ended).toMatchObject({
      state: "failed",
      error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: expect.any(String) },
      finishedAt: expect.any(String),
    });
    expect(ended).not.toHaveProperty("result");
    // No fourth attempt.
    expect(await renderRow(id)).toMatchObject({ state: "failed", attempts: MAX_ATTEMPTS, leaseExpiresAt: null });
    // The reaper's end deletes the input like any other end.
    expect(await hasInput(id)).toBe(false);
    expect(await logLine(worker.logFile, (l) => l.renderId === id)).toMatchObject({
      level: 40, msg: "took back a render whose worker stopped", workspaceId, attempt: MAX_ATTEMPTS, state: "failed", diagnostic: "render_process_exited",
    });
    expect(await usageTotals(workspaceId)).toEqual({ ...before, failed: before.failed + 1 });
  });

  it("is tried again when abandoned with attempts left, and the dead attempt's file is deleted", { timeout: 30_000 }, async () => {
    // Its worker died during the first attempt, after storing its file: only the lease tells.
    const id = newId("rnd");
    const deadFile = path.join(env.dataDir, "files", renderFileKey({ workspaceId, id, format: "pdf" }, 1));
    fs.mkdirSync(path.dirname(deadFile), { recursive: true });
    fs.writeFileSync(deadFile, "%PDF-1.7 stored by the dead attempt");
    await sql.begin(async (tx) => {
      await tx`insert into renders (id, workspace_id, state, source, format, attempts, lease_expires_at, started_at)
               values (${id}, ${workspaceId}, 'processing', 'document', 'pdf', 1, now() - interval '1 second', now() - interval '20 seconds')`;
      await tx`insert into render_inputs (render_id, payload) values (${id}, ${tx.json({ document: { html: "<p>second attempt</p>" } })})`;
    });
    const ended = await waitForState(env.key, id, undefined, { ...opts(), timeout: 15_000 });
    await expect.poll(() => fs.existsSync(deadFile), { timeout: 10_000, interval: 100 }).toBe(false);
    const takenBack = await logLine(worker.logFile, (l) => l.renderId === id && l.msg === "took back a render whose worker stopped");
    expect(takenBack).toMatchObject({ level: 40, workspaceId, attempt: 1, state: "queued" });
    expect(await logLine(worker.logFile, (l) => l.renderId === id && l.msg === "render ended")).toMatchObject({ level: 30, attempt: 2, state: "succeeded" });
    expect(ended.state, JSON.stringify(ended)).toBe("succeeded");
    // Put back in the queue, it kept its input for the second attempt, which deleted it on ending.
    expect(await renderRow(id)).toMatchObject({ attempts: 2 });
    expect(await hasInput(id)).toBe(false);
    const file = await download(ended.result!.downloadUrl!);
    expect(pdfText(file.bytes).replace(/\s+/g, "")).toContain("secondattempt");
  });

  it("counts every render of this environment exactly once", async () => {
    const [rows] = await sql<{ succeeded: number; failed: number; cancelled: number; active: number }[]>`
      select count(*) filter (where state = 'succeeded')::int as succeeded, count(*) filter (where state = 'failed')::int as failed,
             count(*) filter (where state = 'cancelled')::int as cancelled, count(*) filter (where state in ('queued', 'processing'))::int as active
      from renders where workspace_id = ${workspaceId}`;
    expect(rows).toEqual({ succeeded: 5, failed: 2, cancelled: 0, active: 0 });
    expect(await usageTotals(workspaceId)).toEqual({ succeeded: 5, failed: 2, cancelled: 0 });
  });
});

describe("a worker that stops", () => {
  it("finishes the render it has, claims no other, and leaves the queue to the next worker", { timeout: 90_000 }, async () => {
    const slow = await startSlowRender(4000, "finished while stopping");
    const queued: string[] = [];
    for (const text of ["queued one", "queued two"]) {
      const res = await createRender(env.key, { document: { html: `<p>${text}</p>` }, waitMs: 0 }, opts());
      expect(res.status, res.text).toBe(202);
      queued.push(res.body.id as string);
    }
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      worker.proc.once("exit", (code, signal) => resolve({ code, signal })),
    );
    worker.proc.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(await renderRow(slow)).toMatchObject({ state: "succeeded", attempts: 1 });
    // The statement that ended the slow render claimed nothing: the worker was stopping.
    for (const id of queued) expect(await renderRow(id)).toMatchObject({ state: "queued", attempts: 0 });

    worker = env.startWorker();
    for (const id of queued) {
      const ended = await waitForState(env.key, id, undefined, { ...opts(), timeout: 45_000 });
      expect(ended.state, JSON.stringify(ended)).toBe("succeeded");
    }
  });
});
