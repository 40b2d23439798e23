/**
 * Jobs for lib/offload/pool.test.ts only, loaded by a helper beside the real ones when its pool is
 * made with `testJobs` (never in production): a job that spins for `ms`, one that allocates until
 * the heap limit ends it, the names of the helper's environment variables, whether it loaded a package,
 * and one that throws.
 */
export const jobs = {
  spin: (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
    return ms;
  },
  exhaust: () => {
    const hold: number[][] = [];
    for (;;) hold.push(new Array(1_000_000).fill(1.5));
  },
  environment: () => Object.keys(process.env).sort(),
  /** Whether the helper has loaded a package (from node_modules) so far. */
  loaded: (name: string) => Object.keys(require.cache).some((file) => file.includes(`/node_modules/${name}/`)),
  fail: (message: string) => {
    throw new RangeError(message);
  },
};
