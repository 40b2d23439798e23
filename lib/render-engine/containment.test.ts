import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { pdfText } from "@/lib/testing/pdf";
import { createRender, download } from "@/lib/testing/renders";
import { privateDatabase } from "@/lib/testing/database";
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

  it("runs as the browser user, without capabilities, in an environment holding nothing of Folio's, outside DATA_DIR", { timeout: 120_000 }, async () => {
    const dataDir = inject("dataDir");
    const p = await catchPdftoppm(dataDir);
    const expectedUid = asRoot ? uidOf(BROWSER_USER) : process.getuid!();
    expect(p.uids, p.command).toEqual([expectedUid, expectedUid, expectedUid, expectedUid]);
    const names = (p.environ ?? []).map((e) => e.slice(0, e.indexOf("=")));
    expect(names.sort()).toEqual(["HOME", "LANG", "PATH", "TMPDIR"]);
    for (const setting of FOLIO_SETTINGS) expect(names).not.toContain(setting);
    expect(p.status).toMatch(/^CapEff:\s+0+$/m);
    expect(p.status).toMatch(/^NoNewPrivs:\s+1$/m);
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
      expect(ready).toMatchObject({ ok: true, checks: { browser: "ok" }, browser: { sandbox: false } });
      expect(ready.warnings).toEqual([expect.stringContaining("WITHOUT")]);
      const lines = fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: expect.stringContaining("sandbox OFF") }));
    } finally {
      await worker.stop();
    }
  });
});
