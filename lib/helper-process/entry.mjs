// The entry of a helper process of lib/offload/pool.ts: plain JavaScript, so it starts the same way
// under tsx (worker), Next.js (web, whose bundle does not hold it) and vitest; it loads the
// TypeScript loader, then the jobs, and answers one message at a time over its IPC channel.
import { register } from "tsx/esm/api";

register();
const { jobs: own } = await import("./jobs.ts");
// A test's pool names a module of jobs of its own (lib/testing/helper-jobs.ts); production never does.
const jobs = process.argv[2] ? { ...own, ...(await import(process.argv[2])).jobs } : own;

process.on("message", async ({ id, job, args }) => {
  try {
    if (!Object.hasOwn(jobs, job)) throw new Error(`no helper job named ${String(job)}`);
    const value = await jobs[job](...args);
    process.send({ id, ok: true, value });
  } catch (e) {
    process.send({ id, ok: false, error: { name: e?.constructor?.name ?? "Error", message: String(e?.message ?? e) } });
  }
});
// The parent went away: nothing is left to answer.
process.on("disconnect", () => process.exit(0));
process.send({ ready: true });
