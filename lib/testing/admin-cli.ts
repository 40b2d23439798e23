import { execFile } from "node:child_process";
import { programArgs, projectRoot } from "./server";

export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * Runs the real admin CLI, compiled from lib/cli/admin.ts as the container runs it, in a process of
 * its own with exactly these arguments. why not through npm: npm's own start-up (about a second)
 * would be most of each call.
 */
export function runAdminCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...programArgs("lib/cli/admin.ts"), ...args],
      { cwd: projectRoot, env: { ...process.env, ...env }, timeout: 300_000 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? (typeof err.code === "number" ? err.code : -1) : 0,
          stdout,
          stderr: err && typeof err.code !== "number" ? `${stderr}${String(err)} signal=${err.signal}` : stderr,
        }),
    );
  });
}

/** The CLI's --json answer; rejects with its stderr when it exits other than 0. */
export async function adminJson(args: string[], env: Record<string, string>): Promise<unknown> {
  const r = await runAdminCli([...args, "--json"], env);
  if (r.code !== 0) throw new Error(`admin ${args.join(" ")}: exit ${r.code}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as unknown;
}
