import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../config";
import { spawnContained, type ContainedLimits } from "./contained";

// The launcher every helper that parses callers' bytes starts through (contained.ts): what the
// started program itself sees of its user, environment, limits and folder.

const asRoot = process.getuid?.() === 0;
const limits: ContainedLimits = { timeoutMs: 20_000, cpuSeconds: 7, memoryBytes: 512 * 1024 * 1024, fileBytes: 1024 * 1024 };

async function run(program: string, args: string[], l = limits, signal?: AbortSignal) {
  const { child, done } = spawnContained(program, args, l, signal);
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  child.stdin.end();
  return { ...(await done), out, err };
}

let dataDir: string;
const saved = { ...process.env };
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-contained-data-"));
  fs.writeFileSync(path.join(dataDir, "secret-key"), `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o600 });
  fs.chmodSync(dataDir, 0o700);
  // Settings a worker holds, which must not reach a helper.
  Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: "postgres://folio:pw@127.0.0.1:1/folio", SMTP_URL: "smtp://u:p@mail.example:587" });
  resetConfigForTests();
});
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a contained helper program", () => {
  it.runIf(asRoot)("runs as the browser user, with no capability, no_new_privs and no supplementary group", async () => {
    const expected = spawnSync("id", ["-u", "folio-render"], { encoding: "utf8" }).stdout.trim();
    const r = await run("sh", ["-c", "id -u; id -g; id -G; grep -E '^(CapEff|CapPrm|NoNewPrivs)' /proc/self/status"]);
    expect(r.code, r.err).toBe(0);
    const [uid, gid, groups, ...status] = r.out.trim().split("\n");
    expect(uid).toBe(expected);
    expect(uid).not.toBe("0");
    expect(groups).toBe(gid);
    expect(status).toEqual(["CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "NoNewPrivs:\t1"]);
  });

  it("gets an environment of PATH, LANG, HOME and TMPDIR only, and a private folder outside DATA_DIR as both", async () => {
    const r = await run("sh", ["-c", "env; echo cwd=$(pwd); stat -c %a .; touch made-here"]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split("\n");
    const cwd = lines.find((l) => l.startsWith("cwd="))!.slice(4);
    const env = lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.slice(0, l.indexOf("=")));
    // (PWD, OLDPWD, SHLVL and _ are the shell's own.)
    expect(env.filter((n) => !["PWD", "OLDPWD", "SHLVL", "_"].includes(n)).sort()).toEqual(["HOME", "LANG", "PATH", "TMPDIR"]);
    for (const name of ["DATABASE_URL", "SMTP_URL", "DATA_DIR", "SECRET_KEY"]) expect(env).not.toContain(name);
    expect(r.out).toContain(`HOME=${cwd}`);
    expect(r.out).toContain(`TMPDIR=${cwd}`);
    expect(cwd.startsWith(dataDir)).toBe(false);
    expect(lines).toContain("700");
    // The folder goes with the process.
    expect(fs.existsSync(cwd)).toBe(false);
  });

  it.runIf(asRoot)("cannot read DATA_DIR", async () => {
    const r = await run("cat", [path.join(dataDir, "secret-key")]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/Permission denied/);
    expect(r.out).toBe("");
  });

  it("runs under the CPU, memory and file size limits it was given", async () => {
    const r = await run("cat", ["/proc/self/limits"]);
    expect(r.code, r.err).toBe(0);
    const soft = (name: string) => new RegExp(`^${name}\\s+(\\S+)`, "m").exec(r.out)?.[1];
    expect(soft("Max cpu time")).toBe("7");
    expect(soft("Max address space")).toBe(String(512 * 1024 * 1024));
    expect(soft("Max file size")).toBe(String(1024 * 1024));
    expect(soft("Max core file size")).toBe("0");
  });

  it("is killed with everything it started when its time is up", async () => {
    const started = Date.now();
    const r = await run("sh", ["-c", "sleep 30 & sleep 30; echo survived"], { ...limits, timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe("SIGKILL");
    expect(r.out).toBe("");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("is killed when its signal aborts", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const r = await run("sleep", ["30"], limits, ac.signal);
    expect(r.signal).toBe("SIGKILL");
    expect(r.timedOut).toBe(false);
  });
});
