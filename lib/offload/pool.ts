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
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Why a job did not end: it ran past its time or memory limit, or its helper stopped (or never started). */
export class HelperLimitError extends Error {
  constructor(
    readonly limit: "time" | "memory" | "exited" | "start",
    message: string,
  ) {
    super(message);
    this.name = "HelperLimitError";
  }
}

/** The job threw: its error's class name and message, as the helper reported them. */
export class HelperJobError extends Error {
  constructor(
    readonly remoteName: string,
    message: string,
  ) {
    super(message);
    this.name = "HelperJobError";
  }
}

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
};

/**
 * The helper's entry (a plain .mjs that loads the TypeScript loader and jobs.ts, in lib/helper-process:
 * the job table imports what the helpers run, so it stands above this pool and not beside it). Found
 * from this file's folder when it runs from source (worker, tsx, vitest); in the web process Next.js bundles this
 * file, and its name is then the bundle's: the entry is found under the working directory, the
 * project root, as for the migrations (lib/db/migrate.ts).
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
 * What a helper's environment holds: nothing of Folio's settings (no database URL, secret key or
 * storage keys), as for every program that parses a caller's bytes (docs/architecture.md).
 */
function helperEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", NODE_ENV: process.env.NODE_ENV };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

type Pending = {
  /** A name in jobs.ts (which only the helpers load: it imports the modules whose code they run). */
  job: string;
  args: unknown[];
  timeoutMs: number;
  signal?: AbortSignal;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
};

type Helper = {
  child: ChildProcess;
  /** Resolves when the helper has loaded its jobs. */
  ready: Promise<void>;
  started: boolean;
  busy?: Pending;
  /** Ends the running job's time limit and abort listener. */
  clear?: () => void;
  idleTimer?: NodeJS.Timeout;
  dead: boolean;
  /** The end of its standard error, which says why V8 stopped it. */
  stderr: string;
};

type Reply = { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string } };

/** A helper beyond the warm ones ends after this long without a job. */
const SPARE_IDLE_MS = 30_000;

export class HelperPool {
  private helpers: Helper[] = [];
  private queue: Pending[] = [];
  private nextId = 0;

  constructor(readonly opts: PoolOptions) {}

  /** Starts the warm helpers now, so the first job does not wait for one to start. */
  warm(): Promise<void> {
    while (this.helpers.length < this.opts.warmHelpers) this.spawn();
    return Promise.all(this.helpers.map((h) => h.ready.catch(() => {}))).then(() => {});
  }

  /** Process IDs of the helpers started (tests). */
  get pids(): number[] {
    return this.helpers.map((h) => h.child.pid!).filter(Boolean);
  }

  /**
   * Runs `job` in a helper. Rejects with HelperLimitError past the time or memory limit (the
   * helper is ended and replaced), with HelperJobError when the job threw, and with the signal's
   * reason when it fires first (a running job's helper is ended too).
   */
  run<T>(job: string, args: unknown[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      const p: Pending = { job, args, timeoutMs: opts.timeoutMs ?? this.opts.timeoutMs, signal: opts.signal, resolve: resolve as (v: unknown) => void, reject };
      if (opts.signal) {
        const signal = opts.signal;
        const onAbort = () => {
          const i = this.queue.indexOf(p);
          if (i >= 0) {
            this.queue.splice(i, 1);
            p.reject(signal.reason);
          }
        };
        signal.addEventListener("abort", onAbort, { once: true });
        const done = () => signal.removeEventListener("abort", onAbort);
        p.resolve = (v) => (done(), resolve(v as T));
        p.reject = (e) => (done(), reject(e));
      }
      this.queue.push(p);
      this.dispatch();
    });
  }

  /** Ends every helper (process stop, tests). */
  async close(): Promise<void> {
    const helpers = this.helpers;
    this.helpers = [];
    await Promise.all(helpers.map((h) => this.end(h)));
  }

  private dispatch() {
    while (this.queue.length) {
      let h = this.helpers.find((x) => !x.busy && !x.dead);
      if (!h) {
        if (this.helpers.length >= this.opts.maxHelpers) return;
        h = this.spawn();
      }
      this.start(h, this.queue.shift()!);
    }
  }

  private spawn(): Helper {
    const child = fork(entryPath(), [], {
      // why set: the helper would otherwise inherit the process's flags (tsx's loader, --inspect,
      // a larger heap); the entry loads the TypeScript loader itself, the same way everywhere.
      execArgv: [`--max-old-space-size=${this.opts.memoryMb}`],
      env: helperEnv(),
      serialization: "advanced", // byte arrays cross as bytes, not JSON
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    const h: Helper = { child, dead: false, started: false, stderr: "", ready: Promise.resolve() };
    child.stderr!.on("data", (b: Buffer) => (h.stderr = (h.stderr + b.toString()).slice(-4096)));
    h.ready = new Promise<void>((resolve, reject) => {
      child.once("message", (m: Reply) => {
        h.started = "ready" in m;
        if (h.started) resolve();
        else reject(new Error("the helper did not start"));
      });
      child.once("exit", () => reject(new Error("the helper exited")));
    });
    h.ready.catch(() => {});
    child.on("message", (m: Reply) => {
      if (!("id" in m)) return;
      const p = h.busy;
      if (!p) return;
      h.clear?.();
      h.busy = undefined;
      if (m.ok) p.resolve(m.value);
      else p.reject(new HelperJobError(m.error.name, m.error.message));
      this.idle(h);
      this.dispatch();
    });
    child.on("error", (e) => this.fail(h, new HelperLimitError("exited", `its helper failed: ${e.message}`)));
    // "close", not "exit": by then its standard error, which names a heap limit, has been read.
    child.on("close", (code, signal) => {
      const memory = /heap out of memory|Reached heap limit/i.test(h.stderr);
      this.fail(h, new HelperLimitError(memory ? "memory" : "exited", memory ? `it needed more than ${this.opts.memoryMb} MiB of memory` : `its helper stopped (${signal ?? `exit code ${code}`})`));
    });
    this.unref(h);
    this.helpers.push(h);
    return h;
  }

  private start(h: Helper, p: Pending) {
    if (h.idleTimer) clearTimeout(h.idleTimer);
    h.busy = p;
    // A running job keeps the process up until it ends; an idle helper never does.
    h.child.ref();
    h.child.channel?.ref();
    // The time limit counts from the job's start, not from the helper's (a helper that does not
    // start fails the job through its exit).
    void h.ready.then(() => {
      if (h.busy !== p || h.dead) return;
      if (p.signal?.aborted) {
        // Cancelled while the helper started: it stays, unused.
        h.busy = undefined;
        p.reject(p.signal.reason);
        this.idle(h);
        this.dispatch();
        return;
      }
      this.send(h, p);
    }, () => {});
  }

  private send(h: Helper, p: Pending) {
    const timer = setTimeout(() => this.fail(h, new HelperLimitError("time", `it took longer than ${p.timeoutMs / 1000} s`)), p.timeoutMs);
    const onAbort = () => this.fail(h, p.signal!.reason);
    p.signal?.addEventListener("abort", onAbort, { once: true });
    h.clear = () => {
      clearTimeout(timer);
      p.signal?.removeEventListener("abort", onAbort);
    };
    h.child.send({ id: this.nextId++, job: p.job, args: p.args }, (err) => {
      if (err) this.fail(h, new HelperLimitError("exited", `its helper could not be reached: ${err.message}`));
    });
  }

  private unref(h: Helper) {
    h.child.unref();
    h.child.channel?.unref();
  }

  private idle(h: Helper) {
    this.unref(h);
    const index = this.helpers.filter((x) => !x.dead).indexOf(h);
    if (index >= this.opts.warmHelpers) {
      h.idleTimer = setTimeout(() => {
        if (!h.busy) void this.end(h);
      }, SPARE_IDLE_MS);
      h.idleTimer.unref();
    }
  }

  /** Ends a helper, its job failing with `err`; a replacement starts when jobs wait or warm ones are missing. */
  private fail(h: Helper, err: unknown) {
    if (h.dead) return;
    const p = h.busy;
    h.clear?.();
    h.busy = undefined;
    void this.end(h);
    if (!h.started) {
      // A helper that could not load its jobs: the next would not either; what waits fails now.
      const why = new HelperLimitError("start", `its helper did not start: ${h.stderr.trim().split("\n").at(-1) || (err as Error).message}`);
      for (const q of [...(p ? [p] : []), ...this.queue.splice(0)]) q.reject(why);
      return;
    }
    p?.reject(err);
    if (this.helpers.length < this.opts.warmHelpers) this.spawn();
    this.dispatch();
  }

  private async end(h: Helper) {
    h.dead = true;
    if (h.idleTimer) clearTimeout(h.idleTimer);
    this.helpers = this.helpers.filter((x) => x !== h);
    if (h.child.exitCode !== null || h.child.signalCode !== null) return;
    const exited = new Promise((r) => h.child.once("exit", r));
    h.child.ref(); // so that waiting for its exit keeps the process up
    h.child.kill("SIGKILL");
    await exited;
  }
}
