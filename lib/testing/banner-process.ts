import { spawn, type ChildProcess } from "node:child_process";
import { expect } from "vitest";

/** A service started as a user starts it (`npm start`, the container's entry script), up to its banner. */
export type BannerProcess = { proc: ChildProcess; output: () => string; exited: Promise<number | null>; banner: string };

/**
 * Starts `command` in a process group of its own and waits (90 s at most) for the banner Folio
 * prints once it serves ("Folio is running. ... Press Ctrl-C to stop"). `name` says what exited or
 * stayed silent; every process started is added to `started`, for killGroups.
 */
export async function startUntilBanner(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  started: ChildProcess[],
): Promise<BannerProcess> {
  const proc = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  started.push(proc);
  let stdout = "";
  let stderr = "";
  proc.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const output = () => `stdout:\n${stdout.slice(-4000)}\nstderr:\n${stderr.slice(-4000)}`;
  const deadline = Date.now() + 90_000;
  while (!/Folio is running\.[\s\S]*Press Ctrl-C to stop/.test(stdout)) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode} before its banner\n${output()}`);
    if (Date.now() > deadline) throw new Error(`no banner within 90 s\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, output, exited, banner: stdout.slice(stdout.indexOf("Folio is running.")) };
}

/** SIGTERM to the process itself (as Ctrl-C or tini would): it must stop what it started and exit 0 within 30 s. */
export async function stopExpectingExit(r: BannerProcess, baseUrl: string) {
  r.proc.kill("SIGTERM");
  const code = await Promise.race([r.exited, new Promise<"timeout">((res) => setTimeout(() => res("timeout"), 30_000))]);
  expect(code, r.output()).toBe(0);
  await expect(fetch(`${baseUrl}/readyz`)).rejects.toThrow();
}

/** After a test that failed midway: SIGKILL to the whole group of each process still running. */
export function killGroups(started: ChildProcess[]) {
  for (const p of started) {
    if (p.exitCode === null && p.signalCode === null && p.pid) {
      try {
        process.kill(-p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
}
