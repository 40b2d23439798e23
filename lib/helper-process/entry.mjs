// @ts-check
// The entry of a helper process of lib/offload/pool.ts: plain JavaScript, so it starts the same way
// from a compiled program (production), under tsx (development), Next.js (web, whose bundle does not
// hold it) and vitest. Its arguments name the module of jobs (dist/server/helper-jobs.js compiled, or
// jobs.ts) and, for a test's pool only, a module of more jobs (lib/testing/helper-jobs.mjs), and
// `--preload=<job>,<job>`: the jobs of its pool, whose modules it loads before it says it is ready
// (jobs.ts loads a job's module on first use). It loads the TypeScript loader only for a .ts module,
// then answers one message at a time over its IPC channel (lib/processes/protocol.ts).
import { pathToFileURL } from "node:url";

/** @typedef {import("../processes/protocol").FromProcess} FromProcess */

const args = process.argv.slice(2);
const modules = args.filter((a) => !a.startsWith("--"));
const preload = args.find((a) => a.startsWith("--preload="))?.slice("--preload=".length).split(",").filter(Boolean) ?? [];
if (modules.some((m) => m.endsWith(".ts"))) (await import("tsx/esm/api")).register();
/** @type {Record<string, ((...args: any[]) => unknown) & { load?: () => Promise<unknown> }>} */
const jobs = {};
for (const m of modules) Object.assign(jobs, (await import(pathToFileURL(m).href)).jobs);
for (const name of preload) {
  if (!Object.hasOwn(jobs, name)) throw new Error(`no helper job named ${name} to preload`);
  await jobs[name]?.load?.();
}

/** @param {FromProcess} message */
function send(message) {
  process.send?.(message);
}

process.on("message", async (/** @type {import("../processes/protocol").ToProcess} */ m) => {
  // A helper cannot stop a job midway: a cancel is left to the pool, which ends the helper.
  if ("cancel" in m) return;
  const { id, job, args } = m;
  try {
    if (!Object.hasOwn(jobs, job)) throw new Error(`no helper job named ${String(job)}`);
    const value = await jobs[job]?.(...args);
    send({ id, ok: true, value });
  } catch (e) {
    const err = /** @type {{ constructor?: { name?: string }, message?: unknown } | undefined} */ (e);
    send({ id, ok: false, error: { name: err?.constructor?.name ?? "Error", message: String(err?.message ?? e) } });
  }
});
// The parent went away: nothing is left to answer.
process.on("disconnect", () => process.exit(0));
send({ ready: true });
