/**
 * The sandbox: every step that runs a caller's template code (Handlebars itself, helpers.js,
 * beforeRender scripts, component headers and footers, string rendering) runs in V8 isolates
 * (isolated-vm) inside ONE long-lived helper process (host.mjs), never in this process's realm.
 * That process holds none of Folio's settings, runs under Node's permission model (no file
 * writes, no child processes, reads of the program's own files only) and, when the server runs as
 * root, as the unprivileged render user with no capability and no_new_privs: an engine escape
 * meets the walls a browser exploit meets (docs/architecture.md, Threat model).
 *
 * Limits per step (spec: Limits > Scripts and helpers) are enforced in the process: 2 s of CPU
 * (6 s of running time on a machine too busy to give it that), 64 MiB
 * (the isolate's heap), 8,000,000 bytes of source and data in, 5,000,000 bytes of HTML out, 50,000
 * syntax nodes nested at most 100, the first 100 console calls at 2,000 characters each. Data
 * nested deeper than 100 levels is refused here, before anything is sent.
 */
import fs from "node:fs";
import path from "node:path";
import { AppError, limitExceeded, rateLimited } from "../errors";
import { containedLaunch, renderUser } from "../processes/launch";
import { isHelperJobError, isHelperLimitError, isPoolBusyError, ProcessPool, type Launch } from "../processes/pool";
import { currentTenant } from "../processes/tenant";
import { sandboxFiles } from "./stage";

export type SandboxConsoleEntry = { step: string; level: "log" | "info" | "warn" | "error" | "debug"; message: string };
export type SandboxJob = {
  /** helpers.js source: every function it declares at top level is a Handlebars helper (args, hash, blocks via options.fn/inverse). */
  helpers?: string;
  /** Partials by name. */
  partials?: Record<string, string>;
  /** Scripts run first, in order, each must define beforeRender(data) (may be async, may return new data or mutate). */
  scripts?: { name: string; source: string }[];
  /** The Handlebars steps to run on the (script-reshaped) data, e.g. {name:"template"}, {name:"header"}, {name:"footer"}, {name:"string"}. */
  steps: { name: string; source: string }[];
  data: unknown;
  /** Component templates' header/footer: only built-in helpers + pageNumber/totalPages, no partials/helpers.js (today's rules in lib/templates/margins.ts). */
  restricted?: boolean;
  /**
   * Checks without running (publishing's syntax check, checkHandlebarsSyntax): precompiles the
   * steps and partials as a render would (syntax, node and nesting limits) and compiles helpers.js
   * and the scripts, running none of them; outputs are empty. Errors name the file and line as a
   * run's do.
   */
  compileOnly?: boolean;
  /**
   * A data schema applied before the steps, in the same job (one crossing): `data` is what it
   * applies to (the caller's data, which the steps may see reshaped). With violations, or a schema
   * that cannot be applied, no step runs and the result's `check` says why.
   */
  check?: { schema: Record<string, unknown>; draft: string; data: unknown };
};
export type SandboxResult = { outputs: Record<string, string>; data: unknown; console: SandboxConsoleEntry[]; check?: SchemaCheck };

/** The spec's limits of a step (Limits > Scripts and helpers): the one table, passed to host.mjs and its harness. */
export const sandboxLimits = {
  cpuMs: 2000,
  /** A step's running time, waiting for the CPU on a busy machine included. */
  wallMs: 6000,
  memoryMb: 64,
  inBytes: 8_000_000,
  outBytes: 5_000_000,
  syntaxNodes: 50_000,
  nesting: 100,
  dataDepth: 100,
  consoleCalls: 100,
  consoleChars: 2000,
} as const;

/**
 * Runs every step in the sandbox process; throws AppError BAD_REQUEST (syntax error naming the
 * file — "template", "header", "partial invoice-row", "helpers.js", "script totals" — and line;
 * script without beforeRender; data nested too deep) or LIMIT_EXCEEDED (CPU, memory, sizes,
 * complexity) from lib/errors.ts. The error's details carry the file as `path`.
 */
export async function runSandbox(job: SandboxJob, signal?: AbortSignal): Promise<SandboxResult> {
  refuseDeepData(job.data);
  const data = job.data === undefined ? undefined : JSON.stringify(job.data);
  // why here too: the process would refuse it as well, but only after copying megabytes to it.
  const shared = Buffer.byteLength(data ?? "") + (job.restricted ? 0 : Buffer.byteLength(job.helpers ?? "") + Object.values(job.partials ?? {}).reduce((n, s) => n + Buffer.byteLength(s), 0));
  for (const s of job.steps) {
    if (shared + Buffer.byteLength(s.source) > sandboxLimits.inBytes) {
      const message = `more than ${sandboxLimits.inBytes.toLocaleString("en-US")} bytes of source and data`;
      throw limitExceeded(`${s.name}: ${message}`, { details: [{ path: s.name, message }] });
    }
  }
  const check = job.check ? schemaSent(job.check.schema, job.check.draft, job.check.data) : undefined;
  const sent = { helpers: job.helpers, partials: job.partials, scripts: job.scripts, steps: job.steps.map((s) => ({ name: s.name, source: s.source })), data, restricted: !!job.restricted, compileOnly: !!job.compileOnly, ...(check ? { check } : {}) };
  const steps = job.steps.length + (job.scripts?.length ? 1 : 0) + (check ? 1 : 0);
  let reply: Value;
  try {
    reply = await runInPool(sent, steps, check ? "dataSchema" : job.scripts?.length ? "scripts" : (job.steps[0]?.name ?? "template"), signal);
  } catch (e) {
    throw isFailure(e) ? toAppError(e) : e;
  }
  // Without scripts the process sends no data back: the steps saw the caller's.
  return { outputs: reply.outputs, data: reply.data === undefined ? job.data : JSON.parse(reply.data), console: reply.console, ...(reply.check ? { check: reply.check } : {}) };
}

/** A data schema applied to data in the sandbox: the first 100 violations and whether there were more, or why it cannot be applied. */
export type SchemaCheck = { details: { path?: string; message: string }[]; more: boolean } | { unusable: string };

/**
 * Applies a data schema (JSON Schema, `draft` as @cfworker/json-schema names it) to data in the
 * sandbox process, never in this one: a schema's `pattern` may backtrack for as long as its author
 * likes, `uniqueItems` compares every pair of a long array. One step, "dataSchema", under the
 * step limits (2 s of CPU, 64 MiB): past them 400 LIMIT_EXCEEDED "dataSchema: used more than 2 s
 * of CPU", and the next job runs in a fresh isolate.
 */
export async function checkSchemaInSandbox(schema: Record<string, unknown>, draft: string, data: unknown, signal?: AbortSignal): Promise<SchemaCheck> {
  const sent = { ...schemaSent(schema, draft, data), steps: [] };
  try {
    const reply = await runInPool(sent, 1, "dataSchema", signal);
    if (!reply.check) throw new AppError("INTERNAL", "The sandbox answered a schema check without its result");
    return reply.check;
  } catch (e) {
    // why without console: a schema runs no console calls; the refusal is the schema's, not a template step's.
    throw isFailure(e) ? toAppError({ ...e, console: undefined }) : e;
  }
}

/** 400 for data nested deeper than the sandbox takes, before anything is sent. */
function refuseDeepData(data: unknown): void {
  if (dataDepth(data, sandboxLimits.dataDepth) <= sandboxLimits.dataDepth) return;
  const message = `nested more than ${sandboxLimits.dataDepth} levels deep`;
  throw new AppError("BAD_REQUEST", `data: ${message}`, { details: [{ path: "data", message }] });
}

/** A schema check as the sandbox takes it (alone, or with a render's steps): its limits checked here, before the copy. */
function schemaSent(schema: Record<string, unknown>, draft: string, data: unknown): { schema: string; draft: string; data?: string } {
  refuseDeepData(data);
  const sent = { schema: JSON.stringify(schema), draft, data: data === undefined ? undefined : JSON.stringify(data) };
  if (Buffer.byteLength(sent.schema) + Buffer.byteLength(sent.data ?? "") > sandboxLimits.inBytes) {
    const message = `more than ${sandboxLimits.inBytes.toLocaleString("en-US")} bytes of schema and data`;
    throw limitExceeded(`dataSchema: ${message}`, { details: [{ path: "dataSchema", message }] });
  }
  return sent;
}

/** The nesting depth of arrays and objects in `value`, counted without recursion and stopping past `max`. */
export function dataDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const here = d + 1;
    if (here > deepest) deepest = here;
    if (deepest > max) return deepest;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (typeof x === "object" && x !== null) stack.push([x, here]);
  }
  return deepest;
}

/**
 * What the process object rejects with: plain data, turned into an AppError by runSandbox.
 * why not an AppError at once: the process object is shared through globalThis by every copy of
 * this module in a process (the web server's own and Next.js's bundles), and an AppError of one
 * copy is not an instance of another copy's class, which would make the route answer 500.
 */
type Failure = { sandboxFailure: true; code: string; file: string; message: string; console?: SandboxConsoleEntry[] };
const failure = (code: string, file: string, message: string, console?: SandboxConsoleEntry[]): Failure => ({ sandboxFailure: true, code, file, message, console });
const isFailure = (e: unknown): e is Failure => typeof e === "object" && e !== null && (e as Failure).sandboxFailure === true;

type Value = { outputs: Record<string, string>; data?: string; console: SandboxConsoleEntry[]; check?: SchemaCheck };
type Answer = Value | { error: { code: string; file: string; message: string; console?: SandboxConsoleEntry[] } };

/**
 * Where host.mjs is: beside this file when it runs from source (worker, tsx, vitest); in the web
 * process Next.js bundles this file, and the script is found under the project root, the
 * working directory (as lib/offload/pool.ts finds its helper entry).
 */
function hostPath(): string {
  const candidates = [
    typeof __filename === "string" && path.isAbsolute(__filename) ? path.join(path.dirname(__filename), "host.mjs") : "",
    path.join(process.cwd(), "lib", "sandbox", "host.mjs"),
  ].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p) && fs.existsSync(path.join(path.dirname(p), "harness.js")));
  if (!found) throw new Error(`The sandbox's program was not found (looked at ${candidates.join(", ")})`);
  return found;
}

/** Time a job gets on top of its steps' own limits before its process is presumed stuck and killed. */
const SLACK_MS = 10_000;

/**
 * The pool's shape (docs/architecture.md, "The process wing"). Each process runs one job at a
 * time, so a job that crashes or bloats its process fails alone. Four at most per server process,
 * two of them kept warm and one spare started ahead of need; a workspace runs two jobs at once
 * and keeps sixteen waiting, sixty-four wait in all; past those, 429 without Retry-After.
 */
export const sandboxPoolShape = {
  processes: 4,
  warm: 2,
  spare: 1,
  perWorkspaceRunning: 2,
  perWorkspaceWaiting: 16,
  waiting: 64,
  /** A job's resident growth at most: the step's 64 MiB heap, its data and HTML copied across the isolate boundary, and V8's young generation. */
  rssGrowthMb: 160,
  /**
   * A process is replaced after this many jobs or minutes (nothing of earlier jobs outlives it).
   * why not fewer: a new process costs about 0.25 s of CPU (Node, isolated-vm, the snapshot),
   * 0.125 ms per job at 2,000, against the sandbox's ~4 ms of CPU per render; at 500 it was 0.5 ms.
   */
  recycleJobs: 2000,
  recycleMs: 15 * 60_000,
} as const;

function sandboxLaunch(): Launch {
  const user = renderUser();
  const files = sandboxFiles(hostPath(), user);
  const node = [
    // isolated-vm's isolates need it (its README): Node's own startup snapshot conflicts with theirs.
    "--no-node-snapshot",
    "--max-old-space-size=256",
    // Node's permission model: the process reads its own program and modules, writes nothing,
    // starts no process or thread. why --allow-addons: isolated-vm is one.
    "--permission",
    "--allow-addons",
    ...files.readable.map((dir) => `--allow-fs-read=${dir}`),
    // node-gyp-build (isolated-vm's loader) asks whether this is Alpine.
    "--allow-fs-read=/etc/alpine-release",
    "--disable-warning=SecurityWarning",
  ];
  // The limits go down as one table (host.mjs reads them; its harness gets them in the snapshot).
  return containedLaunch([files.node, ...node, files.host, files.handlebars, files.jsonSchema, JSON.stringify(sandboxLimits)], { user, env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } });
}

// why on globalThis: Next.js may load this module more than once in a process (route bundles);
// one pool per server process is the point.
const KEY = Symbol.for("folio.sandbox");
function sandboxPool(): ProcessPool {
  const g = globalThis as unknown as Record<symbol, ProcessPool | undefined>;
  return (g[KEY] ??= new ProcessPool({
    name: "template sandbox",
    warm: sandboxPoolShape.warm,
    spare: sandboxPoolShape.spare,
    max: sandboxPoolShape.processes,
    memoryMb: sandboxLimits.memoryMb,
    rssGrowthMb: sandboxPoolShape.rssGrowthMb,
    timeoutMs: sandboxLimits.wallMs + SLACK_MS,
    recycle: { jobs: sandboxPoolShape.recycleJobs, ms: sandboxPoolShape.recycleMs },
    fairness: { running: sandboxPoolShape.perWorkspaceRunning, waiting: sandboxPoolShape.perWorkspaceWaiting, totalWaiting: sandboxPoolShape.waiting },
    retryUnexplained: true,
    launch: sandboxLaunch,
  }));
}

/** Runs one job in a sandbox process, the workspace's turn taken (lib/processes/tenant.ts). */
async function runInPool(sent: Record<string, unknown>, steps: number, firstStep: string, signal?: AbortSignal): Promise<Value> {
  let answer: Answer;
  try {
    answer = await sandboxPool().run<Answer>("run", [sent], { timeoutMs: steps * sandboxLimits.wallMs + SLACK_MS, signal, tenant: currentTenant() });
  } catch (e) {
    throw poolFailure(e, firstStep);
  }
  if ("error" in answer) throw failure(answer.error.code, answer.error.file, answer.error.message, Array.isArray(answer.error.console) ? answer.error.console : undefined);
  return answer;
}

/** A pool's refusal or a process's end, as the failure of the step it ran. */
function poolFailure(e: unknown, firstStep: string): unknown {
  if (isPoolBusyError(e)) return rateLimited(e.message, e.retryAfterSeconds);
  if (!isHelperLimitError(e)) return isHelperJobError(e) ? new AppError("INTERNAL", `The sandbox failed: ${e.message}`) : e;
  const step = e.step ?? firstStep;
  const at = (message: string) => ({ details: [{ path: step, message }] });
  switch (e.limit) {
    case "memory": {
      const message = `needed more than ${sandboxLimits.memoryMb} MiB of memory`;
      return limitExceeded(`${step}: ${message}`, at(message));
    }
    case "crashed": {
      // V8 ends a process so (a fatal error) for allocations past what an engine holds.
      const message = `needed more memory than a step may use (${e.message})`;
      return limitExceeded(`${step}: ${message}`, at(message));
    }
    case "time": {
      const message = `ran longer than ${sandboxLimits.wallMs / 1000} s`;
      return limitExceeded(`${step}: ${message}`, at(message));
    }
    case "exited": {
      const message = `the sandbox's process stopped twice while it ran this step (${e.message})`;
      return new AppError("RENDER_FAILED", `${step}: ${message}`, at(message));
    }
    case "start":
      return new AppError("INTERNAL", `The template sandbox could not start: ${e.message}`, { retryable: true });
  }
}

function toAppError(e: Failure): AppError {
  const code = e.code === "LIMIT_EXCEEDED" || e.code === "BAD_REQUEST" ? e.code : "INTERNAL";
  if (code === "INTERNAL") return new AppError("INTERNAL", `The sandbox failed: ${e.message}`);
  const message = `${e.file}: ${e.message}`;
  // What the run logged before it failed rides with the error: a preview answers it (docs/api.md).
  return new AppError(code, message, { details: [{ path: e.file, message: e.message }], ...(e.console ? { console: e.console } : {}) });
}

/** Starts the sandbox's warm processes ahead of the first step (server and worker start). */
export function warmSandbox(): Promise<void> {
  return sandboxPool().warm();
}

/** The sandbox processes' IDs (tests, bench). */
export function sandboxPids(): number[] {
  return sandboxPool().pids;
}

/** Ends every sandbox process (tests, shutdown); the next job starts the pool again. */
export function stopSandbox(): Promise<void> {
  return sandboxPool().close();
}
