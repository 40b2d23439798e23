import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { pdfText } from "@/lib/testing/pdf";
import { createRender, download } from "@/lib/testing/renders";
import { privateDatabase } from "@/lib/testing/database";
import { syscallFilter } from "@/lib/processes/seccomp";
import { freePort, startProcess, waitForHttp } from "@/lib/testing/server";

// The worker's browser runs callers' scripts, so it must hold nothing of the worker's: another
// user, Chromium's sandbox on, an environment without Folio's settings, no way into DATA_DIR.
// These tests look at the real processes of this run's worker, as an operator would with ps.

const asRoot = process.getuid?.() === 0;
const BROWSER_USER = "folio-render";
/** Names of the worker's settings that must not reach the browser. */
const FOLIO_SETTINGS = ["DATABASE_URL", "SECRET_KEY", "DATA_DIR", "FILE_STORE", "DEPLOY_API_KEY", "ADMIN_PASSWORD", "FOLIO_PROCESS"];

/**
 * A process as /proc shows it. `command` is its arguments joined by spaces (Chromium's sandboxed
 * processes rewrite theirs into one string); environ and userNs are undefined where /proc refuses them.
 */
type Proc = { pid: number; ppid: number; uids: number[]; command: string; environ?: string[]; seccomp: number; userNs?: string };

const attempt = <T,>(read: () => T): T | undefined => {
  try {
    return read();
  } catch {
    return undefined;
  }
};

function readProc(pid: number): Proc | undefined {
  const status = attempt(() => fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!status) return undefined; // gone meanwhile
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1] ?? "";
  return {
    pid,
    ppid: Number(field("PPid")),
    uids: field("Uid").split(/\s+/).map(Number),
    command: (attempt(() => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")) ?? "").split("\0").join(" ").trim(),
    environ: attempt(() => fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean)),
    seccomp: Number(field("Seccomp")),
    userNs: attempt(() => fs.readlinkSync(`/proc/${pid}/ns/user`)),
  };
}

function allProcs(): Proc[] {
  return fs
    .readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => readProc(Number(n)) ?? []);
}

/** The browser processes under this test run's workers (found by their DATA_DIR): each browser's whole tree, launcher included. */
function workerBrowsers(dataDir: string): { workers: Proc[]; browsers: Proc[] } {
  const procs = allProcs();
  const workers = procs.filter((p) => p.environ?.includes(`DATA_DIR=${dataDir}`) && p.environ.includes("FOLIO_PROCESS=worker"));
  const byParent = new Map<number, Proc[]>();
  for (const p of procs) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const browsers: Proc[] = [];
  const walk = (p: Proc) => {
    browsers.push(p);
    for (const child of byParent.get(p.pid) ?? []) walk(child);
  };
  // The worker's other children (tsx's esbuild service) are its own business, not the browser's.
  for (const w of workers) for (const child of byParent.get(w.pid) ?? []) if (child.command.includes("chromium")) walk(child);
  return { workers, browsers };
}

const uidOf = (name: string) => Number(spawnSync("id", ["-u", name], { encoding: "utf8" }).stdout.trim());

let w: TestWorkspace;
beforeAll(async () => {
  w = await createTestWorkspace();
  // A render first, so the worker's browser is surely up with its renderers.
  const r = await createRender(w.key, { document: { html: "<p>warm</p>" }, waitMs: 30_000 });
  expect(r.body.state).toBe("succeeded");
});

describe("the worker's browser", () => {
  it("runs as the browser user with Chromium's sandbox on, in an environment holding nothing of Folio's", () => {
    const { workers, browsers } = workerBrowsers(inject("dataDir"));
    expect(workers.length).toBeGreaterThan(0);
    const chromium = browsers.filter((p) => p.command.includes("chromium"));
    expect(chromium.length).toBeGreaterThan(2); // browser, zygotes, renderers, utilities

    const expectedUid = asRoot ? uidOf(BROWSER_USER) : process.getuid!();
    for (const p of browsers) {
      expect(p.uids, p.command).toEqual([expectedUid, expectedUid, expectedUid, expectedUid]);
      expect(p.command).not.toContain("--no-sandbox");
      const names = (p.environ ?? []).map((e) => e.slice(0, e.indexOf("=")));
      for (const setting of FOLIO_SETTINGS) expect(names.filter((n) => n.startsWith(setting)), `${setting} in ${p.pid}`).toEqual([]);
    }

    // The browser process writes into its temporary profile only: HOME and TMPDIR point there.
    const main = chromium.find((p) => p.command.includes("--user-data-dir="))!;
    const profile = /--user-data-dir=(\S+)/.exec(main.command)![1]!;
    expect(main.environ ?? []).toEqual(expect.arrayContaining([`HOME=${profile}`, `TMPDIR=${profile}`]));
    expect(fs.statSync(profile).uid).toBe(expectedUid);

    // The user switch is launch.ts's (run-chromium.sh runs the words it is given): no capability,
    // no_new_privs. And none of the filter and namespace of the sandbox's hosts: the browser keeps
    // its network, and its own sandbox filters its renderers.
    if (asRoot) {
      const status = fs.readFileSync(`/proc/${main.pid}/status`, "utf8");
      expect(status).toMatch(/^CapEff:\s+0+$/m);
      expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    }
    expect(main.seccomp).toBe(0);
    expect(fs.readlinkSync(`/proc/${main.pid}/ns/net`)).toBe(fs.readlinkSync(`/proc/${workers[0]!.pid}/ns/net`));

    // spec of the sandbox: every renderer under seccomp (mode 2, filter) in a user namespace of its own.
    const renderers = chromium.filter((p) => p.command.includes("--type=renderer"));
    expect(renderers.length).toBeGreaterThan(0);
    for (const r of renderers) {
      expect(r.seccomp, `renderer ${r.pid}`).toBe(2);
      expect(r.userNs, `renderer ${r.pid}`).not.toBe(main.userNs);
    }
  });

  it.runIf(asRoot)("cannot read DATA_DIR: the browser user is refused the secret key and the folder", () => {
    const dataDir = inject("dataDir");
    expect(fs.existsSync(path.join(dataDir, "secret-key"))).toBe(true);
    const asBrowserUser = (...cmd: string[]) =>
      spawnSync("setpriv", [`--reuid=${BROWSER_USER}`, `--regid=${BROWSER_USER}`, "--clear-groups", "--", ...cmd], { encoding: "utf8" });
    const cat = asBrowserUser("cat", path.join(dataDir, "secret-key"));
    expect(cat.status).not.toBe(0);
    expect(cat.stderr).toMatch(/Permission denied/);
    const ls = asBrowserUser("ls", dataDir);
    expect(ls.status).not.toBe(0);
    expect(ls.stderr).toMatch(/Permission denied/);
  });

  it("gives a page no way to the worker's environment or files", async () => {
    const secretFile = path.join(inject("dataDir"), "secret-key");
    const html = `<pre id="out">pending</pre><script>
      const out = [];
      const tryLoad = async (label, url) => {
        try { const r = await fetch(url); out.push(label + ":read:" + (await r.text()).slice(0, 40)); }
        catch (e) { out.push(label + ":blocked"); }
      };
      (async () => {
        out.push("process:" + typeof process, "require:" + typeof require);
        await tryLoad("secret", ${JSON.stringify(`file://${secretFile}`)});
        await tryLoad("environ", "file:///proc/self/environ");
        await tryLoad("parent-environ", "file:///proc/1/environ");
        document.getElementById("out").textContent = out.join("\\n");
        window.folioReady = true; // why: the fetches settle on their own time, maybe after the load event
      })();
    </script>`;
    const r = await createRender(w.key, { document: { html, settings: { waitFor: { flag: true, timeoutMs: 20_000 } } }, waitMs: 30_000 });
    expect(r.body.state).toBe("succeeded");
    const text = pdfText((await download(r.body.result.downloadUrl)).bytes);
    expect(text).toContain("process:undefined");
    expect(text).toContain("require:undefined");
    for (const label of ["secret", "environ", "parent-environ"]) expect(text).toContain(`${label}:blocked`);
    expect(text).not.toContain(":read:");
    expect(text).not.toContain(fs.readFileSync(secretFile, "utf8").trim().slice(0, 12));
  });
});

describe("the worker's pdftoppm (PNG and JPEG renders, image previews)", () => {
  /**
   * The first pdftoppm seen among a worker's children while image renders run: its /proc entries
   * are read the moment it is seen, as ps would. Looks at the workers' children only (cheap enough
   * to poll every few milliseconds).
   */
  async function catchPdftoppm(dataDir: string): Promise<Proc & { cwd?: string; status?: string }> {
    const { workers } = workerBrowsers(dataDir);
    expect(workers.length).toBeGreaterThan(0);
    let seen: (Proc & { cwd?: string; status?: string }) | undefined;
    const poll = setInterval(() => {
      for (const w of workers) {
        const children = attempt(() => fs.readFileSync(`/proc/${w.pid}/task/${w.pid}/children`, "utf8")) ?? "";
        for (const pid of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
          const p = readProc(pid);
          if (!seen && p?.command.startsWith("pdftoppm ")) seen = { ...p, cwd: attempt(() => fs.readlinkSync(`/proc/${pid}/cwd`)), status: attempt(() => fs.readFileSync(`/proc/${pid}/status`, "utf8")) };
        }
      }
    }, 3);
    try {
      // A large JPEG of a busy page keeps pdftoppm at work for a while; a few tries in case one
      // ran between two looks.
      const cells = Array.from({ length: 4000 }, (_, i) => `<i style="background:linear-gradient(${i}deg,#f00,#00f)"></i>`).join("");
      const html = `<style>i{display:inline-block;width:9px;height:9px;border-radius:4px}</style>${cells}`;
      for (let i = 0; i < 5 && !seen; i++) {
        const r = await createRender(w.key, { document: { html }, format: "jpeg", image: { scale: 4 }, waitMs: 30_000 });
        expect(r.body.state, JSON.stringify(r.body.error)).toBe("succeeded");
      }
    } finally {
      clearInterval(poll);
    }
    expect(seen, "no pdftoppm was seen running").toBeDefined();
    return seen!;
  }

  it("runs as the browser user, without capabilities, under the seccomp filter, in an environment holding nothing of Folio's, outside DATA_DIR", { timeout: 120_000 }, async () => {
    const dataDir = inject("dataDir");
    const p = await catchPdftoppm(dataDir);
    const expectedUid = asRoot ? uidOf(BROWSER_USER) : process.getuid!();
    expect(p.uids, p.command).toEqual([expectedUid, expectedUid, expectedUid, expectedUid]);
    const names = (p.environ ?? []).map((e) => e.slice(0, e.indexOf("=")));
    expect(names.sort()).toEqual(["HOME", "LANG", "PATH", "TMPDIR"]);
    for (const setting of FOLIO_SETTINGS) expect(names).not.toContain(setting);
    expect(p.status).toMatch(/^CapEff:\s+0+$/m);
    expect(p.status).toMatch(/^NoNewPrivs:\s+1$/m);
    // The seccomp filter of the sandbox's hosts (lib/processes/seccomp.ts), where this machine takes one.
    if (syscallFilter().on) expect(p.status).toMatch(/^Seccomp:\s+2$/m);
    expect(p.cwd, "its working folder").toBeDefined();
    expect(p.cwd!.startsWith(dataDir)).toBe(false);
    expect(p.environ).toContain(`HOME=${p.cwd}`);
  });
});

describe("a worker whose browser cannot start its sandbox", () => {
  let dir: string;
  beforeAll(() => {
    // A browser that fails as Chromium does where user namespaces are refused (a container without
    // them), unless it is told --no-sandbox; then it is the real headless shell.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-nosandbox-"));
    fs.chmodSync(dir, 0o755);
    const shim = path.join(dir, "chromium");
    fs.writeFileSync(
      shim,
      `#!/bin/sh
for a in "$@"; do [ "$a" = --no-sandbox ] && exec /usr/bin/chromium-headless-shell "$@"; done
echo "[0101/000000.000000:FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox! If you are running on Ubuntu 23.10+ or another Linux distro that has disabled unprivileged user namespaces with AppArmor, see https://chromium.googlesource.com/chromium/src/+/main/docs/security/apparmor-userns-restrictions.md." >&2
exit 1
`,
      { mode: 0o755 },
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("still starts, and says so loudly in its log and its readiness details", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const logFile = path.join(dir, "worker.log");
    // A database of its own: this unsandboxed worker must not take the suite's renders.
    const database = await privateDatabase("nosandbox");
    await database.close();
    const worker = startProcess(
      "worker/index.ts",
      {
        ...inject("serverEnv"),
        DATABASE_URL: database.url,
        FOLIO_PROCESS: "worker",
        WORKER_HEALTH_PORT: String(port),
        CHROMIUM_PATH: path.join(dir, "chromium"),
        WORKER_CONCURRENCY: "1",
      },
      logFile,
    );
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, worker.proc, 30_000, logFile);
      const ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
      expect(ready).toMatchObject({ ok: true, checks: { browser: "ok" }, browser: { sandbox: false, separateUser: asRoot, sandboxRequired: false } });
      expect(ready.warnings[0]).toContain("WITHOUT");
      const lines = fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: expect.stringContaining("sandbox OFF") }));
      // What the console's platform page shows (lib/workers): the worker's report, gone at its stop.
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const reports = await sql<{ id: string; sandbox: boolean; warnings: string[] }[]>`select id, sandbox, warnings from worker_containment`;
        expect(reports).toEqual([{ id: expect.stringMatching(new RegExp(`:${worker.proc.pid}$`)), sandbox: false, warnings: [expect.stringContaining("WITHOUT")] }]);
        await worker.stop();
        expect(await sql`select id from worker_containment`).toEqual([]);
      } finally {
        await sql.end();
      }
    } finally {
      await worker.stop();
    }
  });

  it("does not start where RENDERER_REQUIRE_SANDBOX is on (hosted's default), and says why", { timeout: 60_000 }, async () => {
    const logFile = path.join(dir, "required.log");
    const database = await privateDatabase("sandboxrequired");
    await database.close();
    // DEPLOYMENT_MODE=hosted without RENDERER_REQUIRE_SANDBOX: the setting's hosted default is on.
    const worker = startProcess(
      "worker/index.ts",
      { ...inject("serverEnv"), DATABASE_URL: database.url, FOLIO_PROCESS: "worker", DEPLOYMENT_MODE: "hosted", CHROMIUM_PATH: path.join(dir, "chromium"), WORKER_CONCURRENCY: "1" },
      logFile,
    );
    try {
      const code = await exitCode(worker.proc, 45_000);
      expect(code).toBe(1);
      const out = fs.readFileSync(logFile, "utf8");
      expect(out).toContain("RENDERER_REQUIRE_SANDBOX is on and Chromium's sandbox could not start, so the worker does not start");
      expect(out).toContain("No usable sandbox");
      expect(out).not.toContain("worker started");
    } finally {
      await worker.stop();
    }
  });
});

const renderUid = () => uidOf(BROWSER_USER);
/** The worker's program in its command line: its source under tsx, or the compiled program (dist/server) the suite starts where there is one. */
const WORKER_PROGRAM = /worker\/index\.ts|dist\/server\/worker\.js/;

describe("a worker that does not run as root", () => {
  it.runIf(asRoot)("does not start under RENDERER_REQUIRE_SANDBOX: its browser would share its user", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-nonroot-"));
    const logFile = path.join(dir, "worker.log");
    // The worker runs as an unprivileged user (the browser user serves: any non-root user would),
    // with the secret key in its environment since DATA_DIR is not its own.
    const worker = startProcess(
      "worker/index.ts",
      { ...inject("serverEnv"), FOLIO_PROCESS: "worker", RENDERER_REQUIRE_SANDBOX: "true", SECRET_KEY: Buffer.alloc(32, 9).toString("base64"), HOME: dir },
      logFile,
      ["setpriv", `--reuid=${renderUid()}`, `--regid=${renderUid()}`, "--clear-groups", "--"],
    );
    try {
      expect(await exitCode(worker.proc, 45_000)).toBe(1);
      const out = fs.readFileSync(logFile, "utf8");
      expect(out).toContain("RENDERER_REQUIRE_SANDBOX is on and the worker does not run as root, so its browser would run as the worker's own user");
    } finally {
      await worker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the worker's own process", () => {
  it.runIf(asRoot)("keeps its environment from the browser user", () => {
    const { workers } = workerBrowsers(inject("dataDir"));
    expect(workers.length).toBeGreaterThan(0);
    for (const w of workers) {
      const cat = spawnSync("setpriv", [`--reuid=${BROWSER_USER}`, `--regid=${BROWSER_USER}`, "--clear-groups", "--", "cat", `/proc/${w.pid}/environ`], { encoding: "utf8" });
      expect(cat.status).not.toBe(0);
      expect(cat.stderr).toMatch(/Permission denied/);
      expect(cat.stdout).not.toContain("DATABASE_URL");
    }
  });

  it("is not dumpable, whoever runs it: its /proc files are root's, its readiness says so, and a process of the suite's user (where not root) cannot read its environment", { timeout: 90_000 }, async () => {
    // The counterpart of the root-only tests around it, run as the suite's own user (root or not):
    // a worker started as that user on a database of its own, as an operator would start one.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-own-user-"));
    // A temporary folder of its own, which its browser (another user, where the suite is root) can use too.
    const tmp = path.join(dir, "tmp");
    fs.mkdirSync(tmp);
    fs.chmodSync(tmp, 0o1777);
    fs.chmodSync(dir, 0o711);
    const logFile = path.join(dir, "worker.log");
    const port = await freePort();
    const database = await privateDatabase("ownuser");
    await database.close();
    const worker = startProcess(
      "worker/index.ts",
      {
        ...inject("serverEnv"),
        DATABASE_URL: database.url,
        DATA_DIR: path.join(dir, "data"),
        FOLIO_PROCESS: "worker",
        WORKER_HEALTH_PORT: String(port),
        WORKER_CONCURRENCY: "1",
        RENDERER_REQUIRE_SANDBOX: "false",
        // why its own: other test files' workers start beside it, each with a copy of node for a moment.
        TMPDIR: tmp,
      },
      logFile,
    );
    const control = spawnSync("sh", ["-c", "sleep 60 >/dev/null 2>&1 & echo $!"], { encoding: "utf8" });
    const controlPid = Number(control.stdout.trim());
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, worker.proc, 60_000, logFile);
      const ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
      expect(ready).toMatchObject({ ok: true, worker: { dumpable: false } });
      const pid = worker.proc.pid!;
      expect(readProc(pid)?.command).toMatch(WORKER_PROGRAM);
      expect(readProc(pid)?.uids[0]).toBe(process.getuid!());
      // The kernel gives a process that is not dumpable /proc files of root's; a dumpable process
      // of the same user (the control) keeps its own.
      expect(fs.statSync(`/proc/${pid}/environ`).uid).toBe(0);
      expect(fs.statSync(`/proc/${controlPid}/environ`).uid).toBe(process.getuid!());
      if (!asRoot) {
        // Where the suite is not root, that is what a renderer exploit of the same user meets.
        expect(() => fs.readFileSync(`/proc/${pid}/environ`)).toThrow(/EACCES/);
        expect(fs.readFileSync(`/proc/${controlPid}/environ`, "utf8").length).toBeGreaterThan(0);
      }
      // No execute-only copy of node is left behind (the re-exec of a worker that is not root).
      expect(fs.readdirSync(tmp).filter((n) => n.startsWith("folio-worker-node-"))).toEqual([]);
    } finally {
      process.kill(controlPid, "SIGKILL");
      await worker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(asRoot)("is not dumpable where it is not root: a process of its own user (its browser) cannot read its environment", { timeout: 90_000 }, async () => {
    // A worker run as an unprivileged user (the browser user serves: any would) with a DATA_DIR of
    // its own, so its browser runs as that same user: the case where only the worker's being not
    // dumpable keeps /proc/<pid>/environ (the database URL, the secret key) from a renderer exploit.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-dumpable-"));
    const dataDir = path.join(dir, "data");
    fs.mkdirSync(dataDir);
    const uid = renderUid();
    fs.chownSync(dir, uid, uid);
    fs.chownSync(dataDir, uid, uid);
    const logFile = path.join(dir, "worker.log");
    const port = await freePort();
    const database = await privateDatabase("dumpable");
    await database.close();
    const asUser = ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--"];
    const worker = startProcess(
      "worker/index.ts",
      {
        ...inject("serverEnv"),
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
        HOME: dir,
        FOLIO_PROCESS: "worker",
        WORKER_HEALTH_PORT: String(port),
        WORKER_CONCURRENCY: "1",
        RENDERER_REQUIRE_SANDBOX: "false",
        // why its own: other test files' workers start beside it, each with a copy of node for a moment.
        TMPDIR: dir,
      },
      logFile,
      asUser,
    );
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, worker.proc, 60_000, logFile);
      const ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
      expect(ready).toMatchObject({ ok: true, browser: { sandbox: true, separateUser: false } });
      expect(ready.warnings).toEqual([expect.stringContaining("the browser and pdftoppm run as the worker's own user")]);
      const pid = worker.proc.pid!;
      expect(readProc(pid)?.uids).toEqual([uid, uid, uid, uid]);
      expect(readProc(pid)?.command).toMatch(WORKER_PROGRAM);
      // Its browser, the same user, reads the environment of a dumpable process of that user...
      const control = spawnSync(asUser[0]!, [...asUser.slice(1), "sh", "-c", "sleep 30 & cat /proc/$!/environ >/dev/null && echo readable; kill $!"], { encoding: "utf8" });
      expect(control.stdout.trim(), control.stderr).toBe("readable");
      // ...but not the worker's.
      const cat = spawnSync(asUser[0]!, [...asUser.slice(1), "cat", `/proc/${pid}/environ`], { encoding: "utf8" });
      expect(cat.status).not.toBe(0);
      expect(cat.stderr).toMatch(/Permission denied/);
      expect(cat.stdout).not.toContain("DATABASE_URL");
      // The execute-only copy of node it re-executed from is gone.
      expect(fs.readdirSync(dir).filter((n) => n.startsWith("folio-worker-node-"))).toEqual([]);
    } finally {
      await worker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The exit code of a process that should end by itself, or a failure after `ms`. */
function exitCode(proc: import("node:child_process").ChildProcess, ms: number): Promise<number | null> {
  if (proc.exitCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
