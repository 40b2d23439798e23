import { spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findSystemUser } from "../private-files";
import { killGroups, startUntilBanner, stopExpectingExit } from "../testing/banner-process";
import { freePort, projectRoot, waitForHttp } from "../testing/server";

/**
 * The container's entry (scripts/container-entry.sh), run here as the image runs it: a data folder
 * of its own as /data, the embedded database, web and worker, stopped by SIGTERM, started again on
 * the same folder. Docker cannot run on the test machines; the image runs exactly this script.
 * Run as root (as the image starts), the script drops to a service user holding CAP_SETUID,
 * CAP_SETGID, CAP_CHOWN and CAP_KILL only: `nobody` here plays the image's `folio`.
 */

const ENTRY = path.join(projectRoot, "scripts", "container-entry.sh");
const asRoot = process.getuid?.() === 0;
const SERVICE_USER = "nobody";
/** CAP_CHOWN, CAP_KILL, CAP_SETGID, CAP_SETUID: bits 0, 5, 6 and 7. */
const SERVICE_CAPABILITIES = "00000000000000e1";

const started: ChildProcess[] = [];

/** The entry script with only the settings a `docker run` gives it. why the cast: Next.js types NODE_ENV as always present; the script gets none. */
const startEntry = (env: Record<string, string>) => startUntilBanner("the entry script", ENTRY, [], { cwd: "/", env: env as unknown as NodeJS.ProcessEnv }, started);

function status(pid: number): { uid: number; capEff: string } {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return { uid: Number(/^Uid:\s+(\d+)/m.exec(text)![1]), capEff: /^CapEff:\s+(\S+)/m.exec(text)![1]! };
}

/** Every process under `root` (its children, theirs...), from /proc. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // why after the last ")": the command name may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // ended meanwhile
    }
  }
  const found = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (found.has(ppid) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(root);
  return [...found];
}

const ownerOf = (pid: number) => {
  try {
    return status(pid).uid;
  } catch {
    return -1;
  }
};
const commandOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
const environmentOf = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);

const keyIn = (banner: string) => /API key:\s+(folio_\w+)/.exec(banner)?.[1];

describe("the container's entry script", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "folio-container-"));
  // why 0755: the service user must pass through to its data folder, as through the image's /.
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, "data");
  // The processes' temporary folder, sticky and open to all as /tmp is, so that what the browser
  // and the helpers leave behind can be told from other tests' on this machine.
  const tmpDir = path.join(root, "tmp");
  fs.mkdirSync(tmpDir);
  fs.chmodSync(tmpDir, 0o1777);

  afterAll(() => {
    killGroups(started); // only if a test failed midway: the whole group the script started
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("sets up an empty /data, renders a PDF, stops on SIGTERM, and starts again on the same data", { timeout: 150_000 }, async () => {
    const port = await freePort();
    const workerPort = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // why so few settings: `docker run -p 3000:3000 -v folio-data:/data` gives the script none but the image's.
    const env: Record<string, string> = {
      PATH: `${path.join(projectRoot, "node_modules", ".bin")}:/usr/sbin:/usr/bin:/sbin:/bin`,
      LANG: "C.UTF-8",
      // The image's own settings (Dockerfile ENV), with this test's folder and ports.
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      WORKER_CONCURRENCY: "1",
      WORKER_HEALTH_PORT: String(workerPort),
      FOLIO_SERVICE_USER: SERVICE_USER,
      NEXT_TELEMETRY_DISABLED: "1",
      TMPDIR: tmpDir,
    };

    const first = await startEntry(env);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    expect(first.banner).toMatch(/Password: \S+ +\(shown once/);
    const key = keyIn(first.banner);
    expect(key, first.output()).toBeDefined();
    const secretKey = fs.readFileSync(path.join(dataDir, "secret-key"), "utf8");
    const dbPassword = fs.readFileSync(path.join(dataDir, "postgres.password"), "utf8");
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);

    // why wait: the banner says the web serves; the worker may still be launching its browser (a busy machine).
    await waitForHttp(`http://127.0.0.1:${workerPort}/readyz`, undefined, 60_000);
    const worker = (await (await fetch(`http://127.0.0.1:${workerPort}/readyz`)).json()) as { browser?: { sandbox: boolean; separateUser: boolean } };
    if (asRoot) {
      const service = findSystemUser(SERVICE_USER)!;
      // The script dropped root: the start process, and through it web and worker, run as the
      // service user with the three capabilities and nothing else.
      expect(status(first.proc.pid!)).toEqual({ uid: service.uid, capEff: SERVICE_CAPABILITIES });
      expect(fs.statSync(dataDir).uid).toBe(service.uid);
      // ...which is what lets the worker run its browser as the render user, sandbox on.
      expect(worker.browser).toMatchObject({ sandbox: true, separateUser: true });
      // The database server holds none of them.
      const postmaster = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
      expect(status(postmaster)).toEqual({ uid: service.uid, capEff: "0000000000000000" });
      // The browser's and the template sandbox's processes (this start's descendants under the
      // render user): no capability, none of Folio's settings, and /data closed to them.
      const renderUser = findSystemUser("folio-render")!;
      const contained = descendants(first.proc.pid!).filter((pid) => ownerOf(pid) === renderUser.uid);
      const commands = contained.map((pid) => commandOf(pid));
      expect(commands.some((c) => c.includes("chromium")), commands.join("\n")).toBe(true);
      expect(commands.some((c) => c.includes("host.mjs")), commands.join("\n")).toBe(true);
      const ownNamespace = fs.readlinkSync("/proc/self/ns/user");
      for (const pid of contained) {
        // why only in this user namespace: the sandbox's zygote holds capabilities inside the user
        // namespace Chromium made for it, where they reach nothing of the host's.
        if (fs.readlinkSync(`/proc/${pid}/ns/user`) === ownNamespace) expect(status(pid).capEff, commandOf(pid)).toBe("0000000000000000");
        expect(environmentOf(pid).filter((v) => /^(DATA_DIR|DATABASE_URL|SECRET_KEY|FOLIO_)/.test(v))).toEqual([]);
      }
      const read = spawnSync("/usr/bin/setpriv", [`--reuid=${renderUser.uid}`, `--regid=${renderUser.gid}`, "--clear-groups", "--", "cat", path.join(dataDir, "secret-key")]);
      expect(read.status).not.toBe(0);
      expect(read.stderr.toString()).toMatch(/Permission denied/);
    }

    const created = await fetch(`${baseUrl}/v1/renders`, {
      method: "POST",
      headers: { "x-api-key": key!, "content-type": "application/json" },
      body: JSON.stringify({ document: { html: "<h1>From the container</h1>" }, waitMs: 30_000 }),
    });
    const render = (await created.json()) as { id: string; state: string; result?: { downloadUrl: string } };
    expect(created.status, JSON.stringify(render)).toBe(200);
    expect(render.state).toBe("succeeded");
    const pdf = Buffer.from(await (await fetch(render.result!.downloadUrl)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    // An image render: pdftoppm, started contained as the render user by the service user.
    const image = await fetch(`${baseUrl}/v1/renders`, {
      method: "POST",
      headers: { "x-api-key": key!, "content-type": "application/json" },
      body: JSON.stringify({ document: { html: "<h1>As an image</h1>" }, format: "png", waitMs: 30_000 }),
    });
    const imageRender = (await image.json()) as { state: string; result?: { downloadUrl: string } };
    expect(imageRender.state, JSON.stringify(imageRender)).toBe("succeeded");
    const png = Buffer.from(await (await fetch(imageRender.result!.downloadUrl)).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");

    await stopExpectingExit(first, baseUrl);

    // The second start keeps the secrets and the database: the same key works and finds the render.
    const second = await startEntry(env);
    try {
      expect(second.banner).not.toMatch(/Password:/);
      expect(keyIn(second.banner)).toBe(key);
      expect(fs.readFileSync(path.join(dataDir, "secret-key"), "utf8")).toBe(secretKey);
      expect(fs.readFileSync(path.join(dataDir, "postgres.password"), "utf8")).toBe(dbPassword);
      const again = await fetch(`${baseUrl}/v1/renders/${render.id}`, { headers: { "x-api-key": key! } });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { state: string }).state).toBe("succeeded");
    } finally {
      await stopExpectingExit(second, baseUrl);
    }
    // Nothing of the browser's or pdftoppm's is left: their folders are the render user's, which a
    // worker that is not root may not remove, so they are taken back or removed by that user.
    expect(fs.readdirSync(tmpDir).filter((f) => /^(playwright|folio-helper)/.test(f))).toEqual([]);
  });
});
