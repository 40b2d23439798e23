import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../db/embedded";
import { signIn } from "../testing/factories";
import { api } from "../testing/http";
import { killGroups, startUntilBanner, stopExpectingExit } from "../testing/banner-process";
import { freePort, programArgs, projectRoot } from "../testing/server";

const ADMIN_EMAIL = "boss@folio.test";

/** `npm start`'s entry point, compiled, as the npm script runs it: web and worker start compiled too. */
const start = (env: NodeJS.ProcessEnv) => startUntilBanner("start", process.execPath, programArgs("lib/cli/start.ts"), { cwd: projectRoot, env }, started);
const compiledWorker = programArgs("worker/index.ts").at(-1)!;

const started: ChildProcess[] = [];

describe("npm start on an empty database", () => {
  const adminUrl = inject("adminUrl");
  const database = `folio_test_${Date.now()}_start_${randomBytes(3).toString("hex")}`;
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${database}`);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let baseUrl: string;
  let firstKey: string;

  beforeAll(async () => {
    await createDatabase(adminUrl, database);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-start-"));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    env = { ...process.env };
    // The test server's bootstrap settings must not leak in: this start generates the password.
    delete env.ADMIN_PASSWORD;
    delete env.DEPLOY_API_KEY;
    Object.assign(env, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: baseUrl, ADMIN_EMAIL });
  });

  afterAll(async () => {
    killGroups(started); // only if a test failed midway: start, its web server and worker
    const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`drop database if exists "${database}" with (force)`);
    } finally {
      await sql.end({ timeout: 5 });
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("bootstraps Default with a generated password and an all-scopes key, then stops on SIGTERM", { timeout: 180_000 }, async () => {
    const r = await start(env);
    expect(r.banner).toContain(`Console:  ${baseUrl}/   (sign in as ${ADMIN_EMAIL})`);
    const password = /Password: (\S+)/.exec(r.banner)?.[1];
    const key = /API key:\s+(\S+)/.exec(r.banner)?.[1];
    expect(password, r.output()).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(key, r.output()).toMatch(/^folio_/);
    firstKey = key!;
    expect(fs.readFileSync(path.join(dataDir, "quickstart-key"), "utf8").trim()).toBe(key);
    expect(fs.statSync(path.join(dataDir, "quickstart-key")).mode & 0o777).toBe(0o600);
    expect(r.banner).toContain(`curl -s ${baseUrl}/v1/instance -H 'x-api-key: ${key}'`);

    const instance = await api("/v1/instance", { baseUrl });
    expect(instance.status).toBe(200);
    expect(instance.body).toMatchObject({ name: "Folio", apiVersion: "v1", publicUrl: baseUrl });

    const audit = await api<{ items: { action: string; actor: object; targetType: string; details: Record<string, unknown> }[] }>(
      "/v1/audit-events?limit=100",
      { baseUrl, key },
    );
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items.filter((e) => e.action === "workspace.create")).toEqual([
      expect.objectContaining({ actor: { type: "system", id: "bootstrap" }, targetType: "workspace", details: { name: "Default" } }),
    ]);
    expect(audit.body.items.filter((e) => e.action === "user.create")).toEqual([
      expect.objectContaining({ details: { email: ADMIN_EMAIL, role: "owner", platformAdmin: true } }),
    ]);

    expect(await signIn(ADMIN_EMAIL, password!, baseUrl)).toMatch(/next-auth\.session-token=/);
    await expect(signIn(ADMIN_EMAIL, `${password}x`, baseUrl)).rejects.toThrow("sign-in failed");

    await stopExpectingExit(r, baseUrl);
  });

  it("reuses the saved key and changes nothing on the second start", { timeout: 180_000 }, async () => {
    expect(firstKey).toBeDefined();
    const r = await start(env);
    expect(/API key:\s+(\S+)/.exec(r.banner)?.[1]).toBe(firstKey);
    expect(r.banner).not.toContain("Password:");
    expect((await api("/v1/audit-events", { baseUrl, key: firstKey })).status).toBe(200);

    // A worker that dies is started again in place; the web server answers throughout (issue 33).
    // The worker: a process running the compiled worker below `npm start` (it may run from a copy of
    // node it started itself: lib/render-engine/containment.ts), the topmost such one.
    const parentOf = (pid: string) => /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]!;
    const below = (pid: string, ancestor: string) => {
      for (let p = pid, i = 0; i < 5 && p !== "0" && p !== "1"; i++) if ((p = parentOf(p)) === ancestor) return true;
      return false;
    };
    const workerPid = () =>
      fs
        .readdirSync("/proc")
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            return below(pid, String(r.proc.pid)) && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(compiledWorker);
          } catch {
            return false;
          }
        })
        .find((pid, _, all) => !all.includes(parentOf(pid)));
    const first = workerPid();
    expect(first).toBeDefined();
    // Production runs compiled programs: no process below `npm start` runs a TypeScript loader or source.
    const commands = fs
      .readdirSync("/proc")
      .filter((pid) => /^\d+$/.test(pid))
      .flatMap((pid) => {
        try {
          return below(pid, String(r.proc.pid)) ? [fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")] : [];
        } catch {
          return [];
        }
      });
    expect(commands.length).toBeGreaterThanOrEqual(2);
    expect(commands.filter((argv) => argv.some((a) => a === "tsx" || /\btsx\b|\.ts$/.test(a)))).toEqual([]);
    process.kill(Number(first), "SIGKILL");
    await expect.poll(() => r.output(), { timeout: 10_000 }).toContain("worker exited (SIGKILL); starting it again in 0.5 s");
    expect((await api("/v1/instance", { baseUrl })).status).toBe(200);
    await expect.poll(() => { const now = workerPid(); return now !== undefined && now !== first; }, { timeout: 30_000 }).toBe(true);
    expect((await api("/v1/instance", { baseUrl })).status).toBe(200);

    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const workspaces = await sql<{ name: string }[]>`select name from workspaces`;
      expect(workspaces).toEqual([{ name: "Default" }]);
      const [users] = await sql<{ n: number }[]>`select count(*)::int as n from users`;
      expect(users!.n).toBe(1);
      const [keys] = await sql<{ n: number }[]>`select count(*)::int as n from api_keys`;
      expect(keys!.n).toBe(1);
    } finally {
      await sql.end({ timeout: 5 });
    }

    await stopExpectingExit(r, baseUrl);
  });
});
