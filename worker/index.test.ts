import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { queues } from "@/lib/jobs/catalog";
import { cuttableDatabase } from "@/lib/testing/cuttable-database";
import { privateDatabase } from "@/lib/testing/database";
import { logLines } from "@/lib/testing/logs";
import { freePort, startProcess, waitForHttp, type Started } from "@/lib/testing/server";

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-worker-"));
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");

let worker: Started | undefined;

afterAll(async () => {
  await worker?.stop();
  fs.rmSync(logDir, { recursive: true, force: true });
});

describe("worker", () => {
  it("starts, schedules maintenance, survives an unhandled rejection, and stops cleanly on SIGTERM", { timeout: 60_000 }, async () => {
    const logFile = path.join(logDir, "worker.log");
    const before = new Date();
    // why a preloaded module: it gives the real worker a promise that rejects unhandled on SIGUSR2,
    // without a hook for tests in the worker's code. Node's default would end the process (code 1).
    const rejectOnSignal = `process.on("SIGUSR2", () => { Promise.reject(new Error("probe rejection")); });`;
    const nodeOptions = [process.env.NODE_OPTIONS, `--import=data:text/javascript;base64,${Buffer.from(rejectOnSignal).toString("base64")}`];
    // A database of its own: a second worker on the suite's database would take the suite's renders,
    // and tests that count worker slots (lib/renders/fair-turns.test.ts) would see more than there are.
    const database = await privateDatabase("signals");
    await database.close();
    worker = startProcess(
      "worker/index.ts",
      { ...inject("serverEnv"), DATABASE_URL: database.url, FOLIO_PROCESS: "worker", NODE_OPTIONS: nodeOptions.filter(Boolean).join(" ") },
      logFile,
    );
    const { proc } = worker;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      proc.once("exit", (code, signal) => resolve({ code, signal })),
    );

    await expect
      .poll(() => {
        if (proc.exitCode !== null) throw new Error(`worker exited with ${proc.exitCode}:\n${read(logFile)}`);
        return logLines(logFile).some((l) => l.msg === "worker started");
      }, { timeout: 30_000, interval: 100 })
      .toBe(true);
    expect(logLines(logFile).find((l) => l.msg === "worker started")).toMatchObject({ process: "worker", level: 30 });

    proc.kill("SIGUSR2");
    await expect
      .poll(() => logLines(logFile).find((l) => l.msg === "unhandled promise rejection"), { timeout: 10_000, interval: 100 })
      .toMatchObject({ level: 50, err: { message: "probe rejection" } });
    expect(proc.exitCode, read(logFile)).toBeNull(); // and it goes on to schedule and stop cleanly below

    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ name: string; cron: string; updatedOn: Date }[]>`
        select name, cron, updated_on as "updatedOn" from pgboss.schedule where name = 'maintenance'`;
      expect(rows).toEqual([{ name: "maintenance", cron: queues.maintenance.cron, updatedOn: expect.any(Date) }]);
      // Written by this worker.
      expect(rows[0]!.updatedOn.getTime()).toBeGreaterThanOrEqual(before.getTime());
    } finally {
      await sql.end({ timeout: 5 });
    }

    const sentAt = Date.now();
    proc.kill("SIGTERM");
    const exit = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 15_000))]);
    expect(exit, read(logFile)).toEqual({ code: 0, signal: null });
    expect(Date.now() - sentAt).toBeLessThan(15_000);
    const msgs = logLines(logFile).map((l) => l.msg);
    expect(msgs).toContain("worker stopping");
    expect(msgs.indexOf("worker stopped")).toBeGreaterThan(msgs.indexOf("worker stopping"));
    expect(logLines(logFile).find((l) => l.msg === "worker stopping")).toMatchObject({ signal: "SIGTERM" });
  });

  it("answers /healthz and /readyz on WORKER_HEALTH_PORT, on loopback only, naming what is not ready without its error", { timeout: 90_000 }, async () => {
    const port = await freePort();
    const logFile = path.join(logDir, "worker-health.log");
    // A database of its own: this worker must not claim the suite's renders while its database is cut.
    const database = await cuttableDatabase(inject("adminUrl"));
    const env = { ...inject("serverEnv"), DATABASE_URL: database.url, FOLIO_PROCESS: "worker", WORKER_HEALTH_PORT: String(port), HOST: "0.0.0.0" };
    const w = startProcess("worker/index.ts", env, logFile);
    const readyz = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      return { status: res.status, body: (await res.json()) as unknown };
    };
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, w.proc, 30_000, logFile);
      expect(await readyz()).toMatchObject({ status: 200, body: { ok: true, checks: { database: "ok", browser: "ok" }, browser: { sandbox: true } } });
      expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ ok: true });

      // HOST (the web server's interface) is 0.0.0.0, yet the health port listens on 127.0.0.1 alone:
      // another loopback address of this machine reaches a server bound to 0.0.0.0, not this one.
      await expect(fetch(`http://127.0.0.2:${port}/healthz`)).rejects.toThrow();

      database.cut();
      expect(await readyz()).toMatchObject({ status: 503, body: { ok: false, checks: { database: "unreachable", browser: "ok" } } });
      await expect
        .poll(() => logLines(logFile).find((l) => l.msg === "not ready: the database does not answer"), { timeout: 5000 })
        .toMatchObject({ level: 50, err: { message: expect.any(String) } });
      database.restore();
      await expect.poll(async () => (await readyz()).status, { timeout: 15_000 }).toBe(200);
    } finally {
      await w.stop();
      await database.close();
    }
  });

  it("stopped while its browser launches, closes the browser and leaves nothing of it in the temporary folder", { timeout: 90_000 }, async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "folio-worker-tmp-"));
    fs.chmodSync(tmp, 0o1777); // as /tmp is: the browser runs as the render user
    const database = await privateDatabase("stop-while-starting");
    await database.close();
    const logFile = path.join(logDir, "stop-while-starting.log");
    const w = startProcess("worker/index.ts", { ...inject("serverEnv"), DATABASE_URL: database.url, FOLIO_PROCESS: "worker", TMPDIR: tmp }, logFile);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => w.proc.once("exit", (code, signal) => resolve({ code, signal })));
    const browserFolders = () => fs.readdirSync(tmp).filter((f) => f.startsWith("playwright"));
    try {
      // Playwright makes its folder as the launch begins, and removes it when the browser closes.
      await expect.poll(() => browserFolders().length, { timeout: 60_000, interval: 10 }).toBeGreaterThan(0);
      w.proc.kill("SIGTERM");
      expect(await exited, read(logFile)).toEqual({ code: 0, signal: null });
      const msgs = logLines(logFile).map((l) => l.msg);
      expect(msgs).toContain("worker stopping while it starts");
      expect(msgs).not.toContain("worker started");
      expect(browserFolders()).toEqual([]);
    } finally {
      await w.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
