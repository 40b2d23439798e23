/**
 * The one pool of helper processes (docs/architecture.md, "The process wing"): the template
 * sandbox's hosts (lib/sandbox) and the Node helpers that parse callers' fonts and PDFs
 * (lib/offload) both run here. Every process runs ONE job at a time, so whatever a job does to its
 * process (a V8 fatal error, memory past its bound, a hang) fails that job alone, never a job of
 * another workspace beside it.
 *
 * What the pool does for every kind of process, once:
 * - a handshake (`{ready: true}`), then `{id, job, args}` per job; replies carry the job's id, an
 *   unguessable one per job, and a reply for any other id is ignored (a process that lies about
 *   ids answers nobody but its own caller);
 * - a time limit per job, and a memory bound per job read from the process's resident size while
 *   it runs (`rssGrowthMb`): past either the process is killed and the job alone fails;
 * - the tail of each process's standard error, which says why V8 stopped it;
 * - processes recycled after a number of jobs or minutes, and a spare kept started so that a job
 *   rarely waits for a process to boot;
 * - a restart with backoff when processes die at start;
 * - fair turns between tenants (workspaces): a bound of running and waiting jobs per tenant, turns
 *   taken round robin, so that one tenant's flood waits behind itself, not in front of others;
 *   a tenant whose jobs keep killing processes is backed off for a while.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { CancelMessage, FromProcess, JobMessage } from "./protocol";

/** Why a job did not end: a limit, or its process stopped (or never started). */
export class HelperLimitError extends Error {
  constructor(
    readonly limit: "time" | "memory" | "crashed" | "exited" | "start",
    message: string,
    /** The step the job had reported last (a sandbox job's "template", "helpers.js"...), if any. */
    readonly step?: string,
  ) {
    super(message);
    this.name = "HelperLimitError";
  }
}

/** The job threw: its error's class name and message, as the process reported them. */
export class HelperJobError extends Error {
  constructor(
    readonly remoteName: string,
    message: string,
  ) {
    super(message);
    this.name = "HelperJobError";
  }
}

/** Too many jobs wait already (for this tenant, or in all), or the tenant is backed off: retry later. */
export class PoolBusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "PoolBusyError";
  }
}

/**
 * The pool's errors recognised by name, not by class: a module loaded twice in one process (Next.js
 * route bundles) makes two classes, and the pool, kept on globalThis, throws one copy's.
 */
export const isHelperLimitError = (e: unknown): e is HelperLimitError => e instanceof Error && e.name === "HelperLimitError";
export const isHelperJobError = (e: unknown): e is HelperJobError => e instanceof Error && e.name === "HelperJobError";
export const isPoolBusyError = (e: unknown): e is PoolBusyError => e instanceof Error && e.name === "PoolBusyError";

/** A command line to start, as lib/processes/launch.ts builds it. */
export type Launch = { command: string; args: string[]; env: Record<string, string>; cwd?: string };

export type PoolOptions = {
  /** For messages: "fonts", "pdf", "sandbox". */
  name: string;
  /** Processes kept started while idle. */
  warm: number;
  /** Processes at most; more jobs wait their turn. */
  max: number;
  /** Idle processes kept started ahead of the next job, up to `max` (0: none beyond `warm`). */
  spare?: number;
  /** The memory named in messages (each kind enforces its own: a heap limit, an isolate's limit). */
  memoryMb: number;
  /** A job's resident-memory growth at most, read every few milliseconds while it runs. */
  rssGrowthMb?: number;
  /** A job's time limit once it runs (its wait for a process not counted). */
  timeoutMs: number;
  /** A process is ended after this many jobs or this long, between jobs. */
  recycle?: { jobs: number; ms: number };
  /** Per tenant: jobs running at once, jobs waiting; and jobs waiting in all. */
  fairness?: { running: number; waiting: number; totalWaiting: number };
  /** Jobs whose process died for no reason of their own are run once more on a fresh process. */
  retryUnexplained?: boolean;
  /** How to start one process (called for each, so that its user or files may change). */
  launch: () => Launch;
};

type Pending = {
  id: string;
  tenant: string;
  job: string;
  args: unknown[];
  timeoutMs: number;
  signal?: AbortSignal;
  retried: boolean;
  step?: string;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
};

type Proc = {
  child: ChildProcess;
  ready: Promise<void>;
  started: boolean;
  busy?: Pending;
  clear?: () => void;
  idleTimer?: NodeJS.Timeout;
  dead: boolean;
  /** Set when this pool killed it for memory: the job is charged with that. */
  killedFor?: "memory" | "time";
  stderr: string;
  jobs: number;
  born: number;
};

type Reply = FromProcess;

/**
 * An idle process beyond the warm ones ends after this long without a job. why minutes: a process
 * ended and started again within a busy spell costs its start (about 0.25 s of CPU for the sandbox).
 */
const SPARE_IDLE_MS = 5 * 60_000;
/** How often a running job's resident memory is read. */
const RSS_CHECK_MS = 10;
/** A tenant whose jobs killed this many processes within CRASH_WINDOW_MS is backed off for BACKOFF_MS. */
const CRASHES_TO_BACK_OFF = 3;
const CRASH_WINDOW_MS = 60_000;
const BACKOFF_MS = 30_000;
const PAGE = 4096;
/** V8's own words when it stops a process for memory. */
const MEMORY_WORDS = /heap out of memory|Reached heap limit|out of memory|invalid (array|table|string) (length|size)|Fatal JavaScript invalid size/i;

const NO_TENANT = "";
/** A process that has not said it is ready after this long is stuck at start. */
const BOOT_MS = 30_000;
/** How long a process has to end an aborted job before it is killed. */
const CANCEL_GRACE_MS = 1000;

/** A process that may take a job: started or starting, idle, not killed. */
const usable = (x: Proc) => !x.busy && !x.dead && !x.killedFor;

export class ProcessPool {
  private procs: Proc[] = [];
  /** Waiting jobs by tenant, and the tenants in their turn order. */
  private lanes = new Map<string, Pending[]>();
  private order: string[] = [];
  private runningBy = new Map<string, number>();
  private waitingCount = 0;
  private crashes = new Map<string, number[]>();
  private startFailures = 0;
  private restartTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(readonly opts: PoolOptions) {}

  /** Starts the warm processes now, so that the first job does not wait for one to boot. */
  warm(): Promise<void> {
    this.closed = false;
    try {
      while (this.procs.length < this.opts.warm) this.spawn();
    } catch (e) {
      // A launch that cannot start (no render user, say) is the promise's failure, not a throw.
      return Promise.reject(e);
    }
    return Promise.all(this.procs.map((p) => p.ready.catch(() => {}))).then(() => {});
  }

  /** Process IDs of the processes started (tests). */
  get pids(): number[] {
    return this.procs.filter((p) => !p.dead).map((p) => p.child.pid!).filter(Boolean);
  }

  /**
   * Runs `job` in a process. Rejects with HelperLimitError past the time or memory limit or when
   * the process dies (it is ended and replaced), with HelperJobError when the job threw, with
   * PoolBusyError when its tenant (or the pool) has too many jobs waiting, and with the signal's
   * reason when it fires first (a running job's process is ended too).
   */
  run<T>(job: string, args: unknown[], opts: { timeoutMs?: number; signal?: AbortSignal; tenant?: string } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      const tenant = opts.tenant ?? NO_TENANT;
      const refusal = this.refusal(tenant);
      if (refusal) return reject(refusal);
      const p: Pending = { id: randomUUID(), tenant, job, args, timeoutMs: opts.timeoutMs ?? this.opts.timeoutMs, signal: opts.signal, retried: false, resolve: resolve as (v: unknown) => void, reject };
      if (opts.signal) {
        const signal = opts.signal;
        const onAbort = () => {
          if (this.unqueue(p)) p.reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        const done = () => signal.removeEventListener("abort", onAbort);
        p.resolve = (v) => (done(), resolve(v as T));
        p.reject = (e) => (done(), reject(e));
      }
      this.enqueue(p);
      this.dispatch();
    });
  }

  /** Ends every process (process stop, tests); jobs still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const procs = this.procs;
    this.procs = [];
    const stopped = new HelperLimitError("exited", `the ${this.opts.name} was stopped`);
    for (const q of this.takeWaiting()) q.reject(stopped);
    for (const h of procs) {
      const p = h.busy;
      h.clear?.();
      h.busy = undefined;
      if (p) {
        this.ended(p);
        p.reject(stopped);
      }
    }
    await Promise.all(procs.map((p) => this.end(p)));
  }

  /** Why a new job of `tenant` is refused now, if it is. */
  private refusal(tenant: string): PoolBusyError | undefined {
    const fair = this.opts.fairness;
    if (tenant !== NO_TENANT) {
      const recent = this.recentCrashes(tenant);
      const until = (recent.at(-1) ?? 0) + BACKOFF_MS;
      if (recent.length >= CRASHES_TO_BACK_OFF && Date.now() < until) {
        const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
        return new PoolBusyError(`Jobs of this workspace stopped ${recent.length} ${this.opts.name} processes in the last minute; it is backed off for ${seconds} s`, seconds);
      }
    }
    if (!fair) return undefined;
    if ((this.lanes.get(tenant)?.length ?? 0) >= fair.waiting) return new PoolBusyError(`This workspace has ${fair.waiting} ${this.opts.name} jobs waiting already; retry in a moment`);
    if (this.waitingCount >= fair.totalWaiting) return new PoolBusyError(`The ${this.opts.name} is busy; retry in a moment`);
    return undefined;
  }

  private recentCrashes(tenant: string): number[] {
    const since = Date.now() - CRASH_WINDOW_MS;
    const list = (this.crashes.get(tenant) ?? []).filter((t) => t > since);
    if (list.length) this.crashes.set(tenant, list);
    else this.crashes.delete(tenant);
    return list;
  }

  private enqueue(p: Pending, first = false) {
    let lane = this.lanes.get(p.tenant);
    if (!lane) {
      this.lanes.set(p.tenant, (lane = []));
      this.order.push(p.tenant);
    }
    if (first) lane.unshift(p);
    else lane.push(p);
    this.waitingCount++;
  }

  private unqueue(p: Pending): boolean {
    const lane = this.lanes.get(p.tenant);
    const i = lane?.indexOf(p) ?? -1;
    if (!lane || i < 0) return false;
    lane.splice(i, 1);
    this.waitingCount--;
    if (!lane.length) this.dropLane(p.tenant);
    return true;
  }

  private dropLane(tenant: string) {
    this.lanes.delete(tenant);
    this.order = this.order.filter((t) => t !== tenant);
  }

  /** The next job whose tenant may run one more, tenants taken round robin. */
  private next(): Pending | undefined {
    const cap = this.opts.fairness?.running ?? Infinity;
    for (let i = 0; i < this.order.length; i++) {
      const tenant = this.order[i]!;
      // Work with no workspace named is one lane too, under the same bound.
      if ((this.runningBy.get(tenant) ?? 0) >= cap) continue;
      const lane = this.lanes.get(tenant)!;
      const p = lane.shift()!;
      this.waitingCount--;
      // This tenant goes to the end of the turn order.
      this.order.splice(i, 1);
      if (lane.length) this.order.push(tenant);
      else this.lanes.delete(tenant);
      return p;
    }
    return undefined;
  }

  private dispatch() {
    for (;;) {
      if (!this.waitingCount) break;
      let proc = this.procs.find((x) => usable(x) && x.started);
      if (!proc) {
        // A process still booting takes the job when it is ready (its start counts for nothing).
        proc = this.procs.find(usable);
        if (!proc) {
          if (this.procs.length >= this.opts.max || this.restartTimer) break;
          try {
            proc = this.spawn();
          } catch (e) {
            // Not even started (spawn set a backoff): with no process left to take them, what waits fails now.
            if (!this.procs.some((x) => !x.dead && !x.killedFor)) {
              const why = new HelperLimitError("start", `its process did not start: ${(e as Error).message}`);
              for (const q of this.takeWaiting()) q.reject(why);
            }
            break;
          }
        }
      }
      const p = this.next();
      if (!p) break;
      this.start(proc, p);
    }
    this.keepSpare();
  }

  /** Keeps `spare` idle processes started (up to `max`), so that the next job finds one. */
  private keepSpare() {
    if (this.closed || this.restartTimer) return;
    const spare = this.opts.spare ?? 0;
    let idle = this.procs.filter(usable).length;
    while ((idle < spare || this.procs.length < this.opts.warm) && this.procs.length < this.opts.max) {
      try {
        this.spawn();
      } catch {
        return; // a later try, after the backoff (spawn set it)
      }
      idle++;
    }
  }

  /**
   * Starts one process. Throws when it cannot even be started (its launch or spawn failed: no
   * render user, no memory for a fork); the pool then waits a backoff before it tries again.
   */
  private spawn(): Proc {
    let child: ChildProcess;
    try {
      const launch = this.opts.launch();
      child = spawn(launch.command, launch.args, {
        env: launch.env as unknown as NodeJS.ProcessEnv,
        cwd: launch.cwd ?? "/",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        serialization: "advanced", // byte arrays cross as bytes, not JSON
      });
      if (!child.stderr) throw new Error("no standard error pipe (out of file descriptors?)");
    } catch (e) {
      this.backOffStarts();
      throw e;
    }
    const h: Proc = { child, dead: false, started: false, stderr: "", ready: Promise.resolve(), jobs: 0, born: Date.now() };
    child.stderr.on("data", (b: Buffer) => (h.stderr = (h.stderr + b.toString()).slice(-4096)));
    // A process that says nothing within BOOT_MS is stuck: it is ended, as one that failed to start.
    const boot = setTimeout(() => {
      if (!h.started && !h.dead) child.kill("SIGKILL");
    }, BOOT_MS);
    boot.unref();
    h.ready = new Promise<void>((resolve, reject) => {
      child.once("message", (m: unknown) => {
        clearTimeout(boot);
        h.started = typeof m === "object" && m !== null && "ready" in m;
        if (h.started) {
          this.startFailures = 0;
          resolve();
        } else reject(new Error("the process did not start"));
      });
      child.once("exit", () => reject(new Error("the process exited")));
    });
    h.ready.catch(() => {});
    child.on("message", (raw: unknown) => {
      // Whatever a process sends is checked: it may be one an escape took over.
      if (typeof raw !== "object" || raw === null || !("id" in raw)) return;
      const m = raw as Reply & { id: unknown };
      // A process this pool killed answers nothing more (its job already failed or fails with its end).
      if (h.killedFor || h.dead) return;
      const p = h.busy;
      // why the id: a reply answers the job it names, and only while that job runs in this process.
      if (!p || m.id !== p.id) return;
      if ("step" in m) {
        if (typeof m.step === "string") p.step = m.step.slice(0, 300);
        return;
      }
      if (!("ok" in m)) return;
      h.clear?.();
      h.busy = undefined;
      this.ended(p);
      if (m.ok) p.resolve(m.value);
      else p.reject(new HelperJobError(String(m.error?.name ?? "Error"), String(m.error?.message ?? "failed")));
      this.idle(h);
      this.dispatch();
    });
    child.on("error", (e) => this.fail(h, new HelperLimitError("exited", `its process failed: ${e.message}`)));
    // "close", not "exit": by then its standard error, which names a memory end, has been read.
    child.on("close", (code, signal) => this.fail(h, this.deathOf(h, code, signal)));
    this.unref(h);
    this.procs.push(h);
    void h.ready.then(() => this.dispatch(), () => {});
    return h;
  }

  /** What a process's end means for the job it ran. */
  private deathOf(h: Proc, code: number | null, signal: NodeJS.Signals | null): HelperLimitError {
    const step = h.busy?.step;
    if (h.killedFor === "memory" || MEMORY_WORDS.test(h.stderr)) return new HelperLimitError("memory", `it needed more than ${this.opts.memoryMb} MiB of memory`, step);
    if (h.killedFor === "time") return new HelperLimitError("time", `it took longer than ${(h.busy?.timeoutMs ?? this.opts.timeoutMs) / 1000} s`, step);
    // V8's fatal errors end a process with SIGTRAP or SIGABRT, a native fault with SIGSEGV or SIGBUS.
    if (signal === "SIGTRAP" || signal === "SIGABRT" || signal === "SIGSEGV" || signal === "SIGBUS" || signal === "SIGILL") return new HelperLimitError("crashed", `its process crashed (${signal})`, step);
    return new HelperLimitError("exited", `its process stopped (${signal ?? `exit code ${code}`})`, step);
  }

  private start(h: Proc, p: Pending) {
    if (h.idleTimer) clearTimeout(h.idleTimer);
    h.busy = p;
    this.runningBy.set(p.tenant, (this.runningBy.get(p.tenant) ?? 0) + 1);
    // A running job keeps this process up until it ends; an idle helper never does.
    h.child.ref();
    h.child.channel?.ref();
    void h.ready.then(
      () => {
        if (h.busy !== p || h.dead) return;
        if (p.signal?.aborted) {
          h.busy = undefined;
          this.ended(p);
          p.reject(p.signal.reason);
          this.idle(h);
          this.dispatch();
          return;
        }
        this.send(h, p);
      },
      () => {},
    );
  }

  /** A job is no longer running (for its tenant's count). */
  private ended(p: Pending) {
    const n = (this.runningBy.get(p.tenant) ?? 1) - 1;
    if (n > 0) this.runningBy.set(p.tenant, n);
    else this.runningBy.delete(p.tenant);
  }

  private send(h: Proc, p: Pending) {
    h.jobs++;
    // What an earlier job's end wrote there must not speak for this job's.
    h.stderr = "";
    const start = rssOf(h.child.pid);
    const timer = setTimeout(() => this.kill(h, this.outOfMemory(h, start) ? "memory" : "time"), p.timeoutMs);
    // An aborted job is answered at once; its process is asked to stop the job (a sandbox host
    // disposes the isolate) and killed only if it has not answered within CANCEL_GRACE_MS: a
    // client that disconnects at will must not cost a process start each time.
    const onAbort = () => {
      p.reject(p.signal!.reason);
      const cancel: CancelMessage = { id: p.id, cancel: true };
      h.child.send(cancel, () => {});
      const grace = setTimeout(() => {
        if (h.busy === p) this.fail(h, p.signal!.reason);
      }, CANCEL_GRACE_MS);
      grace.unref();
    };
    p.signal?.addEventListener("abort", onAbort, { once: true });
    let watch: NodeJS.Timeout | undefined;
    const growth = this.opts.rssGrowthMb;
    if (growth) {
      const base = start;
      if (base !== undefined) {
        const bound = base + growth * 1024 * 1024;
        watch = setInterval(() => {
          const now = rssOf(h.child.pid);
          if (now !== undefined && now > bound) this.kill(h, "memory");
        }, RSS_CHECK_MS);
      }
    }
    h.clear = () => {
      clearTimeout(timer);
      if (watch) clearInterval(watch);
      p.signal?.removeEventListener("abort", onAbort);
    };
    const message: JobMessage = { id: p.id, job: p.job, args: p.args };
    h.child.send(message, (err) => {
      if (err) this.fail(h, new HelperLimitError("exited", `its process could not be reached: ${err.message}`));
    });
  }

  /**
   * Whether a process at its time limit had taken most of its memory since its job began (three
   * quarters of memoryMb). why memory then: a V8 heap near its limit spends its time collecting
   * garbage before it gives up, and how long depends on the machine; the job ran out of memory
   * either way, and its answer must not change with the machine's speed.
   */
  private outOfMemory(h: Proc, start: number | undefined): boolean {
    const now = rssOf(h.child.pid);
    return start !== undefined && now !== undefined && now - start >= 0.75 * this.opts.memoryMb * 1024 * 1024;
  }

  /** Kills a process for a limit; its "close" fails its job with that limit (deathOf). */
  private kill(h: Proc, why: "memory" | "time") {
    if (h.dead || h.killedFor) return;
    h.killedFor = why;
    h.clear?.();
    h.child.kill("SIGKILL");
  }

  private unref(h: Proc) {
    h.child.unref();
    h.child.channel?.unref();
  }

  private idle(h: Proc) {
    this.unref(h);
    const recycle = this.opts.recycle;
    if (recycle && (h.jobs >= recycle.jobs || Date.now() - h.born >= recycle.ms)) {
      void this.end(h);
      return;
    }
    const index = this.procs.filter((x) => !x.dead).indexOf(h);
    if (index >= Math.max(this.opts.warm, this.opts.spare ?? 0)) {
      h.idleTimer = setTimeout(() => {
        if (!h.busy) void this.end(h).then(() => this.keepSpare());
      }, SPARE_IDLE_MS);
      h.idleTimer.unref();
    }
  }

  /** Ends a process, its job failing with `err` (or run again once); a replacement starts as needed. */
  private fail(h: Proc, err: unknown) {
    if (h.dead) return;
    const p = h.busy;
    h.clear?.();
    h.busy = undefined;
    if (p) this.ended(p);
    void this.end(h);
    if (!h.started) {
      // A process that could not start: the next may not either. Its job fails, and what waits fails
      // too unless a started process is left to take it; the pool tries again after a backoff.
      const why = new HelperLimitError("start", `its process did not start: ${startFailure(h.stderr) || (err as Error).message}`);
      p?.reject(why);
      if (!this.procs.some((x) => x.started && !x.dead && !x.killedFor)) for (const q of this.takeWaiting()) q.reject(why);
      this.backOffStarts();
      return;
    }
    if (p) {
      const limit = err instanceof HelperLimitError ? err : undefined;
      if (limit?.limit === "exited" && this.opts.retryUnexplained && !p.retried && !p.signal?.aborted) {
        // Not the job's doing as far as anyone can tell (killed from outside, say): once more.
        p.retried = true;
        p.step = undefined;
        this.enqueue(p, true);
      } else {
        if (limit && (limit.limit === "memory" || limit.limit === "crashed" || limit.limit === "exited") && p.tenant !== NO_TENANT) {
          this.crashes.set(p.tenant, [...(this.crashes.get(p.tenant) ?? []), Date.now()]);
        }
        p.reject(err);
      }
    }
    this.dispatch();
  }

  /** Every waiting job, taken out of the lanes. */
  private takeWaiting(): Pending[] {
    const waiting = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.order = [];
    this.waitingCount = 0;
    return waiting;
  }

  /** Waits before the next start, doubling from 0.5 s to 30 s while starts keep failing. */
  private backOffStarts() {
    this.startFailures++;
    if (this.closed || this.restartTimer) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.dispatch();
    }, Math.min(30_000, 250 * 2 ** Math.min(this.startFailures, 7)));
    this.restartTimer.unref();
  }

  private async end(h: Proc) {
    h.dead = true;
    if (h.idleTimer) clearTimeout(h.idleTimer);
    this.procs = this.procs.filter((x) => x !== h);
    if (h.child.exitCode !== null || h.child.signalCode !== null) return;
    const exited = new Promise((r) => h.child.once("exit", r));
    h.child.ref(); // so that waiting for its exit keeps this process up
    h.child.kill("SIGKILL");
    await exited;
    if (!this.closed) this.keepSpare();
  }
}

/** A process's resident memory in bytes, from /proc (undefined once it is gone). */
function rssOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, "latin1").split(" ")[1]);
    return Number.isFinite(pages) ? pages * PAGE : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a process that could not start said about it: the last error line of its stderr (Node ends
 * an uncaught exception's report with its own version, after the stack), else its last line.
 */
export function startFailure(stderr: string): string {
  const lines = stderr.trim().split("\n").map((l) => l.trim());
  return lines.findLast((l) => /^(?:[A-Z][A-Za-z]*)?Error\b[^:]*:/.test(l)) ?? lines.at(-1) ?? "";
}
