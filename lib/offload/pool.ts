/**
 * Jobs that parse or rebuild callers' bytes in Node (fonts with fontkit, PDFs with pdf-lib) run
 * here, in helper processes, never on the event loop that renews leases and answers requests for
 * every workspace (style guide: parsers inside Node get size and time limits and run off that
 * loop). Each helper runs one job at a time under a V8 heap limit; a job past its time limit, or a
 * helper past its heap limit, ends that helper only, and only that job's caller sees the error
 * (HelperLimitError). Helpers are kept warm and reused: starting one (Node with the TypeScript
 * loader) costs about half a second, a job on a warm one only the copy of its input and output.
 *
 * why processes, not worker threads: a thread's heap limit does not hold against one large
 * allocation (fontkit growing an array of a hundred million code points): V8 then aborts the
 * whole process, which is what this module is for avoiding. A process's abort is its own.
 */
import fs from "node:fs";
import path from "node:path";
import { log } from "../log";
import { containedLaunch, openToOthers, renderUser } from "../processes/launch";
import { ProcessPool, type Launch } from "../processes/pool";
import { builtDir } from "../processes/programs";

export { HelperJobError, HelperLimitError } from "../processes/pool";

export type PoolOptions = {
  /** For messages: "fonts", "pdf", "batch-pdf". */
  name: string;
  /** Helpers kept started while idle (started by warm() or the first job). */
  warmHelpers: number;
  /** Helpers at most; more jobs wait their turn. */
  maxHelpers: number;
  /** Each helper's V8 heap (old generation) limit. */
  memoryMb: number;
  /** A job's time limit once it runs (its wait for a helper not counted). */
  timeoutMs: number;
  /** A module of more jobs, loaded beside jobs.ts (tests: lib/testing/helper-jobs.mjs). */
  testJobs?: string;
  /**
   * The jobs this pool runs (lib/helper-process/jobs.ts names), whose modules a helper loads before
   * it is ready: a warm helper's first job does not wait for them, and it loads no other pool's.
   */
  preload?: string[];
};

/**
 * The helper's entry (a plain .mjs in lib/helper-process: the job table imports what the helpers
 * run, so it stands above this pool and not beside it). Found from this file's folder when it runs
 * from source (worker, tsx, vitest); in a compiled program or the web process's Next.js bundle this
 * file's name is the bundle's, and the entry is found under the working directory, the project root,
 * as for the migrations (lib/db/migrate.ts).
 */
function entryPath(): string {
  const candidates = [
    typeof __filename === "string" && path.isAbsolute(__filename) ? path.join(path.dirname(__filename), "..", "helper-process", "entry.mjs") : "",
    path.join(process.cwd(), "lib", "helper-process", "entry.mjs"),
  ].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`The helper entry was not found (looked at ${candidates.join(", ")})`);
  return found;
}

/**
 * The module of jobs the entry loads: the compiled one when this process runs compiled (production:
 * no TypeScript loader, lib/processes/programs.ts), else jobs.ts beside the entry, through tsx. A
 * pool with TypeScript `testJobs` (tests only) takes jobs.ts, whose loader also runs those.
 */
function jobsPath(entry: string, testJobs: string | undefined): string {
  const built = builtDir();
  return built && !testJobs?.endsWith(".ts") ? path.join(built, "helper-jobs.js") : path.join(path.dirname(entry), "jobs.ts");
}

/**
 * What a helper's environment holds: nothing of Folio's settings (no database URL, secret key or
 * storage keys), as for every program that parses a caller's bytes (docs/architecture.md).
 */
function helperEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", NODE_ENV: process.env.NODE_ENV ?? "production" };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

/**
 * The helpers' user: the render user when it may read the helper's program (the checkout and its
 * node_modules, in place), else this process's own, with a warning said once. why not staged as
 * the sandbox's files are: a helper loads the TypeScript loader and half of lib/ with their modules.
 */
let warned = false;
function helperUser(entry: string, jobs: string) {
  const user = renderUser();
  if (!user) return undefined;
  const root = path.resolve(path.dirname(entry), "..", "..");
  const loader = jobs.endsWith(".ts") ? [path.join(root, "node_modules", "tsx", "package.json")] : [];
  const readable = [entry, jobs, ...loader, path.join(root, "node_modules", "pdf-lib", "package.json")].every((p) => openToOthers(p)) && openToOthers(process.execPath, true);
  if (readable) return user;
  if (!warned) {
    warned = true;
    log().warn({ entry }, `The font and PDF helpers run as this process's user, not as ${user.name}: the checkout is not readable by that user (move it out of a private home folder)`);
  }
  return undefined;
}

function helperLaunch(opts: PoolOptions): Launch {
  const entry = entryPath();
  const jobs = jobsPath(entry, opts.testJobs);
  const env = helperEnv();
  const args = [entry, jobs, ...(opts.testJobs ? [opts.testJobs] : []), ...(opts.preload?.length ? [`--preload=${opts.preload.join(",")}`] : [])];
  return containedLaunch([process.execPath, `--max-old-space-size=${opts.memoryMb}`, ...args], { user: helperUser(entry, jobs), env, cwd: path.dirname(entry) });
}

/**
 * The Node helpers' pool: lib/processes/pool.ts with the helper entry, started contained
 * (lib/processes/launch.ts) under a V8 heap limit of `memoryMb`.
 */
export class HelperPool extends ProcessPool {
  constructor(opts: PoolOptions) {
    super({ name: opts.name, warm: opts.warmHelpers, max: opts.maxHelpers, memoryMb: opts.memoryMb, timeoutMs: opts.timeoutMs, launch: () => helperLaunch(opts) });
  }
}
