// @ts-check
// The entry of a helper process of lib/offload/pool.ts: plain JavaScript, so it starts the same way
// under tsx (worker), Next.js (web, whose bundle does not hold it) and vitest; it loads the
// TypeScript loader, then the jobs, and answers one message at a time over its IPC channel
// (lib/processes/protocol.ts).
import { register } from "tsx/esm/api";

/** @typedef {import("../processes/protocol").FromProcess} FromProcess */

register();
const { jobs: own } = await import("./jobs.ts");
// A test's pool names a module of jobs of its own (lib/testing/helper-jobs.ts); production never does.
/** @type {Record<string, (...args: any[]) => unknown>} */
const jobs = process.argv[2] ? { ...own, ...(await import(process.argv[2])).jobs } : own;

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
