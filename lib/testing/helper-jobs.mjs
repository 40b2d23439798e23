// @ts-check
/**
 * Jobs for lib/offload/pool.test.ts only, loaded by a helper beside the real ones when its pool is
 * made with `testJobs` (never in production): a job that spins for `ms`, one that allocates until
 * the heap limit ends it, the names of the helper's environment variables, whether it loaded a package,
 * and one that throws. why plain JavaScript: a helper then loads the compiled jobs beside it, as
 * production does, without the TypeScript loader (about 2 s of CPU a helper's start).
 */
import { createRequire } from "node:module";

/** Node's cache of CommonJS modules, which the compiled jobs load their packages into. */
const loadedFiles = () => Object.keys(createRequire(import.meta.url).cache);

export const jobs = {
  /** @param {number} ms */
  spin: (ms) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
    return ms;
  },
  exhaust: () => {
    /** @type {number[][]} */
    const hold = [];
    for (;;) hold.push(new Array(1_000_000).fill(1.5));
  },
  environment: () => Object.keys(process.env).sort(),
  /** Whether the helper has loaded a package (from node_modules) so far. @param {string} name */
  loaded: (name) => loadedFiles().some((file) => file.includes(`/node_modules/${name}/`)),
  /** @param {string} message */
  fail: (message) => {
    throw new RangeError(message);
  },
};
