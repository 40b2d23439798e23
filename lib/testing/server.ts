import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { BUILT_DIR, programs } from "../processes/programs";

export const projectRoot = path.resolve(__dirname, "../..");

/**
 * Node's arguments for one of Folio's programs, named by its source (lib/processes/programs.ts):
 * the compiled program, as production starts it (the test servers, the admin CLI), so that the
 * suite runs what ships; a source with no compiled program (a test's receiver) runs through tsx.
 */
export function programArgs(source: string): string[] {
  const name = Object.entries(programs).find(([, s]) => s === source)?.[0];
  return name ? [path.join(projectRoot, BUILT_DIR, `${name}.js`)] : ["--import", "tsx", source];
}

/** Compiles the programs (scripts/build-server.mjs, under a second): the suite's servers start from them. */
export function buildPrograms() {
  execFileSync(process.execPath, ["--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", path.join(projectRoot, "scripts", "build-server.mjs")], { cwd: projectRoot, stdio: "inherit" });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether a process with this id still exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export type Started = { proc: ChildProcess; logFile: string; stop: () => Promise<void> };

/**
 * Starts one of Folio's entry points (web or worker) as a real process; its output goes to logFile.
 * `wrap` is a command that execs the rest (for example `setpriv` with other rights), so the pid stays the entry's.
 */
export function startProcess(entry: string, env: Record<string, string>, logFile: string, wrap: string[] = []): Started {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, "a");
  // BENCH_NODE_ARGS (for example "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the processes.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const command = [...wrap, process.execPath, ...nodeArgs, ...programArgs(entry)];
  const proc = spawn(command[0]!, command.slice(1), {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGTERM");
      setTimeout(() => proc.kill("SIGKILL"), 15_000).unref();
    });
  return { proc, logFile, stop };
}

export async function waitForHttp(url: string, proc?: ChildProcess, timeoutMs = 60_000, logFile?: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc && proc.exitCode !== null) {
      throw new Error(`process exited with ${proc.exitCode} before ${url} answered${logFile ? `:\n${fs.readFileSync(logFile, "utf8").slice(-3000)}` : ""}`);
    }
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export type WebServer = { baseUrl: string; stop: () => Promise<void>; logFile: string; pid: number };

/**
 * Starts a web server on a free port against the given database. Tests that need a differently
 * configured server (a small rate limit) start their own with this.
 */
export async function startWebServer(env: Record<string, string>, logDir: string): Promise<WebServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(logDir, `web-${port}.log`);
  const s = startProcess("lib/server/web.ts", { PUBLIC_URL: baseUrl, ...env, PORT: String(port), HOST: "127.0.0.1", FOLIO_PROCESS: "web" }, logFile);
  await waitForHttp(`${baseUrl}/readyz`, s.proc, 60_000, logFile);
  return { baseUrl, stop: s.stop, logFile, pid: s.proc.pid! };
}
