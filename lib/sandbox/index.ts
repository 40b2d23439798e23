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
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { AppError, limitExceeded, rateLimited } from "../errors";
import { log } from "../log";
import { browserUser } from "../render-engine/containment";
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
};
export type SandboxResult = { outputs: Record<string, string>; data: unknown; console: SandboxConsoleEntry[] };

/** The spec's limits of a step (Limits > Scripts and helpers); host.mjs holds the same numbers. */
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
  const depth = dataDepth(job.data, sandboxLimits.dataDepth);
  if (depth > sandboxLimits.dataDepth) throw new AppError("BAD_REQUEST", `data: nested more than ${sandboxLimits.dataDepth} levels deep`, { details: [{ path: "data", message: `nested more than ${sandboxLimits.dataDepth} levels deep` }] });
  const data = job.data === undefined ? undefined : JSON.stringify(job.data);
  // why here too: the process would refuse it as well, but only after copying megabytes to it.
  const shared = Buffer.byteLength(data ?? "") + (job.restricted ? 0 : Buffer.byteLength(job.helpers ?? "") + Object.values(job.partials ?? {}).reduce((n, s) => n + Buffer.byteLength(s), 0));
  for (const s of job.steps) {
    if (shared + Buffer.byteLength(s.source) > sandboxLimits.inBytes) {
      const message = `more than ${sandboxLimits.inBytes.toLocaleString("en-US")} bytes of source and data`;
      throw limitExceeded(`${s.name}: ${message}`, { details: [{ path: s.name, message }] });
    }
  }
  const sent = { helpers: job.helpers, partials: job.partials, scripts: job.scripts, steps: job.steps.map((s) => ({ name: s.name, source: s.source })), data, restricted: !!job.restricted, compileOnly: !!job.compileOnly };
  const steps = job.steps.length + (job.scripts?.length ? 1 : 0);
  let reply: Extract<Reply, { ok: true }>["value"];
  try {
    reply = await sandboxProcess().run(sent, steps, signal);
  } catch (e) {
    throw isFailure(e) ? toAppError(e) : e;
  }
  // Without scripts the process sends no data back: the steps saw the caller's.
  return { outputs: reply.outputs, data: reply.data === undefined ? job.data : JSON.parse(reply.data), console: reply.console };
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
  const depth = dataDepth(data, sandboxLimits.dataDepth);
  if (depth > sandboxLimits.dataDepth) throw new AppError("BAD_REQUEST", `data: nested more than ${sandboxLimits.dataDepth} levels deep`, { details: [{ path: "data", message: `nested more than ${sandboxLimits.dataDepth} levels deep` }] });
  const sent = { schema: JSON.stringify(schema), draft, data: data === undefined ? undefined : JSON.stringify(data), steps: [] };
  if (Buffer.byteLength(sent.schema) + Buffer.byteLength(sent.data ?? "") > sandboxLimits.inBytes) {
    const message = `more than ${sandboxLimits.inBytes.toLocaleString("en-US")} bytes of schema and data`;
    throw limitExceeded(`dataSchema: ${message}`, { details: [{ path: "dataSchema", message }] });
  }
  try {
    const reply = await sandboxProcess().run(sent, 1, signal);
    if (!reply.check) throw new AppError("INTERNAL", "The sandbox answered a schema check without its result");
    return reply.check;
  } catch (e) {
    // why without console: a schema runs no console calls; the refusal is the schema's, not a template step's.
    throw isFailure(e) ? toAppError({ ...e, console: undefined }) : e;
  }
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

type Reply =
  | { ready: true }
  | { id: number; ok: true; value: { outputs: Record<string, string>; data?: string; console: SandboxConsoleEntry[]; check?: SchemaCheck } }
  | { id: number; ok: false; error: { code: string; file: string; message: string; console?: SandboxConsoleEntry[] } };
type Pending = { resolve: (v: Extract<Reply, { ok: true }>["value"]) => void; reject: (e: unknown) => void; done: () => void };

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

const SETPRIV = "/usr/bin/setpriv";

/** Time the process gets on top of each step's own limit before it is presumed stuck and ended. */
const SLACK_MS = 10_000;
/**
 * Jobs the process runs at once (each in an isolate of its own, up to 64 MiB), and jobs waiting
 * here for a turn; past those the server is busy (spec: Rate limit, 429 without Retry-After).
 * why waiting here and not in the process: a job's watchdog must count from its start.
 */
const MAX_RUNNING = 4;
const MAX_WAITING = 64;

class SandboxProcess {
  private child?: ChildProcess;
  private ready?: Promise<void>;
  private pending = new Map<number, Pending>();
  private nextId = 0;
  private stderr = "";

  /** The process's ID once started (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process if it is not running, and waits until it has made its isolate snapshot. */
  start(): Promise<void> {
    if (this.child && this.ready) return this.ready;
    const user = browserUser();
    const files = sandboxFiles(hostPath(), user);
    // why --inh-caps and no_new_privs also without a user switch: the process may never gain rights
    // through a setuid program, whoever runs it.
    const setpriv = user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--inh-caps=-all", "--no-new-privs"] : ["--no-new-privs"];
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
    const child = spawn(SETPRIV, [...setpriv, "--", files.node, ...node, files.host, files.handlebars, files.jsonSchema], {
      // why the cast: Next.js types NODE_ENV as always present; the process gets none of Folio's settings.
      env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } as unknown as NodeJS.ProcessEnv,
      cwd: "/",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    this.child = child;
    this.stderr = "";
    child.stderr!.on("data", (b: Buffer) => (this.stderr = (this.stderr + b.toString()).slice(-4096)));
    this.ready = new Promise<void>((resolve, reject) => {
      child.once("message", (m: Reply) => ("ready" in m ? resolve() : reject(new Error("the sandbox did not start"))));
      child.once("exit", (code, sig) => reject(new Error(`the sandbox process stopped at start (${sig ?? `exit code ${code}`}): ${this.stderr.trim().split("\n").slice(-3).join(" ")}`)));
    });
    this.ready.catch(() => {});
    child.on("message", (m: Reply) => {
      if (!("id" in m)) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.settle(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(failure(m.error.code, m.error.file, m.error.message, Array.isArray(m.error.console) ? m.error.console : undefined));
    });
    child.on("close", (code, sig) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.ready = undefined;
      if (this.pending.size) log().warn({ code, signal: sig }, "sandbox process stopped");
      const err = failure("STOPPED", "", "The sandbox stopped while it ran this step; try again");
      for (const id of [...this.pending.keys()]) {
        const p = this.pending.get(id)!;
        this.settle(id);
        p.reject(err);
      }
    });
    this.idle();
    return this.ready;
  }

  private running = 0;
  private waiting: (() => void)[] = [];

  /** Waits for one of the MAX_RUNNING turns; refuses when MAX_WAITING jobs wait already. */
  private async turn(signal?: AbortSignal): Promise<void> {
    if (this.running < MAX_RUNNING) {
      this.running++;
      return;
    }
    if (this.waiting.length >= MAX_WAITING) throw failure("BUSY", "", "The template sandbox is busy; retry in a moment");
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiting = this.waiting.filter((w) => w !== go);
        reject(signal!.reason);
      };
      this.waiting.push(go);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Hands the turn to the next waiting job, or gives it back. */
  private endTurn() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  async run(job: unknown, steps: number, signal?: AbortSignal): Promise<Extract<Reply, { ok: true }>["value"]> {
    signal?.throwIfAborted();
    await this.turn(signal);
    try {
      return await this.send(job, steps, signal);
    } finally {
      this.endTurn();
    }
  }

  private async send(job: unknown, steps: number, signal?: AbortSignal): Promise<Extract<Reply, { ok: true }>["value"]> {
    await this.start();
    signal?.throwIfAborted();
    const child = this.child!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // why a watchdog: the process enforces each step's limits; if it ever hangs (a native fault),
      // it is ended so that the callers waiting on it get an answer and the next job a new one.
      const timer = setTimeout(() => {
        log().warn({ steps }, "sandbox process ended: a job ran past its steps' limits");
        child.kill("SIGKILL");
      }, steps * sandboxLimits.wallMs + SLACK_MS);
      const onAbort = () => {
        const p = this.pending.get(id);
        if (!p) return;
        this.settle(id);
        child.send({ cancel: id }, () => {});
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve,
        reject,
        done: () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        },
      });
      child.ref();
      child.channel?.ref();
      child.send({ id, job }, (err) => {
        if (err && this.pending.has(id)) {
          this.settle(id);
          reject(failure("STOPPED", "", `The sandbox could not be reached: ${err.message}`));
        }
      });
    });
  }

  private settle(id: number) {
    this.pending.get(id)?.done();
    this.pending.delete(id);
    if (!this.pending.size) this.idle();
  }

  /** An idle sandbox never keeps the server's process up. */
  private idle() {
    this.child?.unref();
    this.child?.channel?.unref();
  }

  /** Ends the process (tests, shutdown); the next job starts a new one. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.ref(); // so that waiting for its exit keeps the process up
    child.kill("SIGKILL");
    await exited;
  }
}

function toAppError(e: Failure): AppError {
  if (e.code === "STOPPED") return new AppError("INTERNAL", e.message, { retryable: true });
  if (e.code === "BUSY") return rateLimited(e.message);
  const code = e.code === "LIMIT_EXCEEDED" || e.code === "BAD_REQUEST" ? e.code : "INTERNAL";
  if (code === "INTERNAL") return new AppError("INTERNAL", `The sandbox failed: ${e.message}`);
  const message = `${e.file}: ${e.message}`;
  // What the run logged before it failed rides with the error: a preview answers it (docs/api.md).
  return new AppError(code, message, { details: [{ path: e.file, message: e.message }], ...(e.console ? { console: e.console } : {}) });
}

// why on globalThis: Next.js may load this module more than once in a process (route bundles);
// one sandbox process per server process is the point.
const KEY = Symbol.for("folio.sandbox");
function sandboxProcess(): SandboxProcess {
  const g = globalThis as unknown as Record<symbol, SandboxProcess | undefined>;
  return (g[KEY] ??= new SandboxProcess());
}

/** Starts the sandbox process ahead of the first step (server and worker start). */
export function warmSandbox(): Promise<void> {
  return sandboxProcess().start();
}

/** The sandbox process's ID, undefined before it started (tests). */
export function sandboxPid(): number | undefined {
  return sandboxProcess().pid;
}

/** Ends the sandbox process (tests, shutdown). */
export function stopSandbox(): Promise<void> {
  return sandboxProcess().stop();
}
