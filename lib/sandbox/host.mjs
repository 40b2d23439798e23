// @ts-check
// The sandbox process (lib/sandbox/index.ts starts it): plain JavaScript run by Node with the
// permission model on, as the unprivileged render user when the server is root, with an
// environment that holds none of Folio's settings. It keeps V8 isolates (isolated-vm) warm and
// runs each step of a job (scripts together, body, header, footer, string) in a FRESH context of
// one of them, with Handlebars' runtime and lib/sandbox/harness.js from an isolate snapshot. Caller
// code never runs in this process's own realm: only strings cross the isolate boundary.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ivm from "isolated-vm";

const here = path.dirname(fileURLToPath(import.meta.url));
/** @typedef {import("../processes/protocol").FromProcess} FromProcess */

/** The process's `n`th argument (lib/sandbox/index.ts gives them all). */
function argument(n) {
  const value = process.argv[n];
  if (value === undefined) throw new Error(`the sandbox's argument ${n - 1} was not given`);
  return value;
}
const handlebarsPath = argument(2);
/** Handlebars without its compiler, beside the full build: what a step's context runs templates with. */
const runtimePath = path.join(path.dirname(handlebarsPath), "handlebars.runtime.min.js");
const jsonSchemaDir = argument(3);

/**
 * The spec's limits of a step, as lib/sandbox/index.ts's `sandboxLimits` holds them: the one table,
 * passed down as this process's fourth argument (and to the isolates' harness, see limitsScript).
 */
const LIMITS = JSON.parse(argument(4));
if (!LIMITS || typeof LIMITS.cpuMs !== "number") throw new Error("the sandbox's limits were not given (fourth argument)");
const CPU_MS = LIMITS.cpuMs;
/** How often a running step's CPU time is read: a step may overrun its CPU_MS by about this much. */
const CPU_CHECK_MS = 20;
/** A step's running time at most, waiting for the CPU included (the pool's watchdog counts on it). */
const WALL_MS = LIMITS.wallMs;
const MEMORY_MB = LIMITS.memoryMb;
const MAX_IN_BYTES = LIMITS.inBytes;
const MAX_OUT_BYTES = LIMITS.outBytes;
const MAX_DEPTH = LIMITS.dataDepth;
const MAX_NODES = LIMITS.syntaxNodes;
const MAX_CONSOLE = LIMITS.consoleCalls;
const MAX_CONSOLE_CHARS = LIMITS.consoleChars;
/** The harness's copy of the table: defined first in the snapshot, read and removed by the harness. */
const limitsScript = `Object.defineProperty(globalThis, "__folioLimits", { value: Object.freeze(${JSON.stringify(LIMITS)}), configurable: true });`;
/**
 * Isolates kept for the next jobs. why two though a process runs one job at a time
 * (lib/processes/pool.ts): the job after one ended at a limit (its isolate thrown away) finds the
 * second ready instead of making one (measured 5 to 10 ms with one, 2 to 6 with two).
 */
const IDLE_ISOLATES = 2;
/** An isolate whose heap stays above this after a step is replaced rather than reused. */
const REUSE_HEAP_BYTES = 24 * 1024 * 1024;
/** Its heap is read after a job that used this much of its CPU, and after every HEAP_CHECK_JOBS-th job (giveBack). */
const HEAP_CHECK_CPU_MS = 20;
const HEAP_CHECK_JOBS = 16;
/** Contexts made ahead of jobs in each idle isolate (an invoice with scripts, a header and a footer takes 4). */
const READY_CONTEXTS = 4;
/** Precompiled templates kept in this process, in bytes of their text. */
const SPEC_CACHE_BYTES = 32 * 1024 * 1024;
/** Precompiled templates kept compiled in each isolate, in bytes (they count toward its 64 MiB), and the largest kept. */
const ISOLATE_SCRIPT_BYTES = 2 * 1024 * 1024;
const ISOLATE_SCRIPT_MAX = 256 * 1024;
/** isolated-vm refuses to compile more code than an eighth of the isolate's memory limit; the same bound here. */
const MAX_CODE_CHARS = (MEMORY_MB * 1024 * 1024) / 8;
/** Arguments and results copied across the isolate boundary. */
/** @type {{ arguments: { copy: true }, result: { copy: true } }} */
const copy = { arguments: { copy: true }, result: { copy: true } };

/**
 * @cfworker/json-schema (the interpreter lib/templates/data-schema.ts uses) as one script for the
 * snapshot: its CommonJS files, each wrapped as a module function, behind a require() of their own.
 * It exposes the package as __folioJsonSchema, with a URL of the isolate's own in front
 * (an isolate has none; see jsonSchemaUrl below).
 */
function jsonSchemaScript() {
  const files = fs.readdirSync(jsonSchemaDir).filter((f) => f.endsWith(".js"));
  const modules = files.map((f) => `${JSON.stringify(`./${f}`)}: function (exports, require, module) {\n${fs.readFileSync(path.join(jsonSchemaDir, f), "utf8")}\n}`);
  return `(function () {
  ${jsonSchemaUrl}
  const defs = {${modules.join(",\n")}};
  const cache = {};
  function req(name) {
    if (cache[name]) return cache[name].exports;
    if (!defs[name]) throw new Error("json-schema: no module " + name);
    const module = (cache[name] = { exports: {} });
    defs[name].call(module.exports, module.exports, req, module);
    return module.exports;
  }
  const URL = FolioURL;
  globalThis.__folioJsonSchema = req("./index.js");
})();`;
}

/**
 * The URL the interpreter needs to name schemas and resolve references, for the isolate (which has
 * no URL). why enough: saves admit only references inside the schema ("#..." fragments, $anchor)
 * and an $id at the root, so a reference is resolved against one base; only lookups of one run
 * compare these hrefs, all made by this same class. Absolute, scheme-relative, root-relative and
 * relative references resolve as a browser would, without its normalisation.
 */
const jsonSchemaUrl = `class FolioURL {
    constructor(ref, base) {
      ref = String(ref);
      let abs;
      if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref) || base === undefined) abs = ref;
      else {
        const b = new FolioURL(base);
        const noHash = b.rest;
        const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(noHash);
        const origin = /^[A-Za-z][A-Za-z0-9+.-]*:(\\/\\/[^/?#]*)?/.exec(noHash)[0];
        if (ref.startsWith("#")) abs = noHash + ref;
        else if (ref === "") abs = noHash;
        else if (ref.startsWith("//")) abs = (scheme ? scheme[0] : "") + ref;
        else if (ref.startsWith("/")) abs = origin + ref;
        else {
          const path = noHash.slice(origin.length).replace(/[?].*$/, "");
          abs = origin + path.slice(0, path.lastIndexOf("/") + 1) + (path.lastIndexOf("/") < 0 ? "/" : "") + ref;
        }
      }
      const i = abs.indexOf("#");
      this.rest = i < 0 ? abs : abs.slice(0, i);
      this._hash = i < 0 ? "" : abs.slice(i + 1);
    }
    get hash() { return this._hash ? "#" + this._hash : ""; }
    set hash(v) { v = String(v); this._hash = v.startsWith("#") ? v.slice(1) : v; }
    get href() { return this.rest + this.hash; }
    toString() { return this.href; }
  }`;

/**
 * lib/sandbox/violations.js, the rules that turn the interpreter's errors into a person's
 * violations (the console imports the same file), as a script for the snapshot: its module scope
 * inside a function, its export made __folioViolations, which the harness takes and removes.
 */
function violationsScript() {
  const source = fs.readFileSync(path.join(here, "violations.js"), "utf8");
  const exported = /^export \{ schemaViolations \};\s*$/m;
  // why refuse at start: a script that no longer fits would leave the harness without its rules.
  if (!exported.test(source)) throw new Error("lib/sandbox/violations.js no longer has its one export, `export { schemaViolations };`");
  return `(function () {
  "use strict";
  ${source.replace(exported, "")}
  Object.defineProperty(globalThis, "__folioViolations", { value: schemaViolations, configurable: true });
})();`;
}

const harnessSource = fs.readFileSync(path.join(here, "harness.js"), "utf8");
const handlebarsSource = fs.readFileSync(handlebarsPath, "utf8");

/** Folio's own template, run once when the snapshot is made (see there). */
const WARM_TEMPLATE = "{{#each a}}{{b}}{{#if c}}{{c}}{{else}}-{{/if}}{{> p}}{{/each}}";
const WARM_PARTIAL = "<i>{{b}}</i>";
const WARM_DATA = '{"a":[{"b":1,"c":"x"},{"b":2}]}';
const WARM_HTML = "1x<i>1</i>2-<i>2</i>";

/** Folio's warm-up templates precompiled, in an isolate of their own that ends at once. */
const warmSpecs = (() => {
  const isolate = new ivm.Isolate({ memoryLimit: MEMORY_MB });
  try {
    const context = isolate.createContextSync();
    isolate.compileScriptSync(handlebarsSource, { filename: "handlebars.js" }).runSync(context);
    isolate.compileScriptSync(limitsScript, { filename: "folio-limits.js" }).runSync(context);
    isolate.compileScriptSync(harnessSource, { filename: "folio-harness.js" }).runSync(context);
    const specs = [WARM_TEMPLATE, WARM_PARTIAL].map((source) => context.evalClosureSync("return __folio.precompile($0, $1, false)", ["warm", source], copy));
    for (const r of specs) if (typeof r?.spec !== "string") throw new Error(`the sandbox's warm-up template did not compile: ${JSON.stringify(r?.error)}`);
    return specs;
  } finally {
    isolate.dispose();
  }
})();

/** The snapshot's warm-up: Folio's own template and partial, given to a context and rendered (WARM_HTML). */
const WARM_STEPS = `__folio.begin("warm", ${JSON.stringify(WARM_DATA)}); __folio.spec("warm", ${warmSpecs[0].spec}); __folio.spec("warm partial", ${warmSpecs[1].spec});`;
const WARM_RENDER = `__folio.renderSpecs("warm", { p: "warm partial" }, false, false)`;

// why a snapshot: evaluating Handlebars in each fresh context costs milliseconds; a context made from
// the snapshot starts with it compiled. why the runtime only: templates reach a step precompiled
// (compiledSpec), and without the compiler's code a context is made in about half the time
// (measured 0.4 ms against 0.7 to 0.9 with the full build).
const snapshot = ivm.Isolate.createSnapshot(
  [
    { code: fs.readFileSync(runtimePath, "utf8"), filename: "handlebars.runtime.js" },
    { code: jsonSchemaScript(), filename: "json-schema.js" },
    { code: violationsScript(), filename: "folio-violations.js" },
    { code: limitsScript, filename: "folio-limits.js" },
    { code: harnessSource, filename: "folio-harness.js" },
  ],
  // Warm-up: compiles the paths every step takes, kept compiled in the snapshot.
  `${WARM_STEPS} ${WARM_RENDER};`,
);

/**
 * Handlebars with its compiler, compiled once with V8's code cache, for the compiler contexts
 * (compilerContext): made in an isolate of the snapshot, since V8 refuses a cache made outside the
 * snapshot its isolate starts from. That isolate also checks the snapshot's warm-up renders as it should.
 */
const compilerCache = (() => {
  const isolate = new ivm.Isolate({ memoryLimit: MEMORY_MB, snapshot });
  try {
    const warm = isolate.createContextSync().evalClosureSync(`${WARM_STEPS} return ${WARM_RENDER};`, [], { ...copy, timeout: CPU_MS });
    if (warm?.html !== WARM_HTML) throw new Error(`the sandbox's warm-up rendered ${JSON.stringify(warm)}`);
    const made = /** @type {import("isolated-vm").Script & { cachedData?: import("isolated-vm").ExternalCopy<ArrayBuffer> }} */ (isolate.compileScriptSync(handlebarsSource, { filename: "handlebars.js", produceCachedData: true }));
    return made.cachedData;
  } finally {
    isolate.dispose();
  }
})();

const idle = [];
const newIsolate = () => new ivm.Isolate({ memoryLimit: MEMORY_MB, snapshot });
/**
 * What each isolate keeps besides its heap: `ready`, contexts made from the snapshot, none of them
 * yet given to a step; `compiler`, (a promise of) the one context where sources are precompiled and
 * checked, in which no caller code ever runs; `scripts`, precompiled templates compiled to V8
 * scripts, by key.
 */
const kept = new WeakMap();
const keptOf = (isolate) => {
  let k = kept.get(isolate);
  if (!k) kept.set(isolate, (k = { ready: [], compiler: undefined, scripts: new Map(), scriptBytes: 0, jobs: 0 }));
  return k;
};
/** The last job's isolate while it is being given back (giveBack): the next job waits for it. */
let returning;
async function takeIsolate() {
  if (returning) await returning;
  return idle.pop() ?? newIsolate();
}
// why asynchronous: nothing of this process waits on an isolate in which caller code has run (a
// synchronous call would hold this process's only thread for as long as that code chose to run).
/**
 * Gives a job's isolate back for the next jobs, or disposes of it. `cpuMs`, the isolate's CPU time
 * during the job. why its heap is read only after a job that ran long, or every HEAP_CHECK_JOBS:
 * the read is a call on the isolate's thread (about 0.2 ms of CPU a job); what a short job left
 * is garbage of contexts already released, which V8 collects before any limit is reached.
 */
function giveBack(isolate, cpuMs) {
  const k = keptOf(isolate);
  const check = cpuMs >= HEAP_CHECK_CPU_MS || ++k.jobs % HEAP_CHECK_JOBS === 0;
  const done = (async () => {
    if (isolate.isDisposed) return;
    let heap = 0;
    if (check) {
      try {
        heap = (await withTimeout(isolate.getHeapStatistics(), 1000)).used_heap_size;
      } catch {
        heap = Infinity;
      }
    }
    if (!isolate.isDisposed && idle.length < IDLE_ISOLATES && heap < REUSE_HEAP_BYTES) idle.push(isolate);
    else if (!isolate.isDisposed) isolate.dispose();
  })();
  returning = done;
  void done.finally(() => {
    if (returning === done) returning = undefined;
    refill();
  });
}

/** `promise`, or a rejection after `ms`. */
function withTimeout(promise, ms) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * A fresh context for one step: one made ahead, or a new one. why fresh still: a ready context was
 * made from the snapshot and has run nothing since, so nothing of one render is visible in it to
 * the next. why not warmed by a run of Folio's own template first (as it once was): that costs
 * about 1 ms of CPU per context, on the two cores the render prints on, to save about 0.2 ms of
 * the step's own (measured with the bench invoice).
 */
async function takeContext(isolate) {
  return keptOf(isolate).ready.pop() ?? (await isolate.createContext());
}

/** One more ready context in the isolate. */
async function addContext(isolate) {
  try {
    const context = await isolate.createContext();
    if (isolate.isDisposed) context.release();
    else keptOf(isolate).ready.push(context);
  } catch {
    // disposed meanwhile (a job in it ran past a limit)
  }
}

let refilling = false;
/** When a job last started or ended (refill waits for a quiet moment after it). */
let lastActivity = 0;
/**
 * How long the process stays quiet after a job before it makes what the next jobs take. why wait:
 * a job's end is when its render is inserted and printed; contexts made then compete for the two
 * cores with exactly that work (measured: 1 to 2 ms more per render). Once the isolates have no
 * ready context left, it does not wait for quiet.
 */
const QUIET_MS = 15;
// why only while no job runs: making an isolate or a context blocks this process's thread for up
// to tens of milliseconds, which a job arriving just then would wait for; jobs use what is ready.
function refill() {
  if (refilling) return;
  refilling = true;
  const next = () => {
    // Not while a job runs, nor while its isolate is given back (it will be the idle one).
    if (running.size > 0 || returning) return void setTimeout(next, 5);
    const quietFor = performance.now() - lastActivity;
    // The isolate the next job takes (takeIsolate) is the last idle one.
    const nextIsolate = idle[idle.length - 1];
    const depleted = idle.length < IDLE_ISOLATES || !nextIsolate || keptOf(nextIsolate).ready.length === 0;
    if (!depleted && quietFor < QUIET_MS) return void setTimeout(next, Math.ceil(QUIET_MS - quietFor));
    let work;
    if (idle.length < IDLE_ISOLATES) {
      // why refill at once, with a context: the run after a limit-killed one must not pay for the
      // new isolate, nor for its first context.
      const isolate = newIsolate();
      work = addContext(isolate).then(() => {
        if (isolate.isDisposed) return;
        if (keptOf(isolate).ready.length > 0) idle.push(isolate);
        else isolate.dispose();
      });
    } else {
      const isolate = idle.find((i) => !i.isDisposed && keptOf(i).ready.length < READY_CONTEXTS);
      if (!isolate) {
        refilling = false;
        return;
      }
      work = addContext(isolate);
    }
    work.finally(() => setTimeout(next, 0));
  };
  setTimeout(next, 0);
}

/** Precompiled templates by key (a hash of the mode and the source), least recently used first. */
const specCache = new Map();
let specCacheBytes = 0;

/**
 * A file of a step compiled to Handlebars' precompiled form, `{ key, spec, nodes }`: from the
 * cache, or precompiled in the isolate's compiler context (under the step's limits). why safe to
 * share between runs and workspaces: the compiler context runs only Folio's harness and
 * Handlebars' compiler, with the source as a string, never a caller's helpers, scripts or data,
 * so the result depends on the source alone; and it is code that runs only inside a step's own
 * context, as the same template compiled there would.
 */
async function compiledSpec(isolate, step, file, source, restricted) {
  const key = crypto.createHash("sha256").update(restricted ? "r\0" : "n\0").update(source).digest("base64url");
  const cached = specCache.get(key);
  if (cached) {
    specCache.delete(key);
    specCache.set(key, cached);
    return cached;
  }
  const compiler = await compilerContext(isolate, step);
  const r = await step.call((timeout) => compiler.evalClosure("return __folio.precompile($0, $1, $2)", [file, source, !!restricted], { ...copy, timeout }), file);
  if (!r || typeof r !== "object") throw new Fault("BAD_REQUEST", file, "the template could not be compiled");
  if (r.error?.code === "INTERNAL") throw new Error(String(r.error.message));
  if (r.error) throw new Fault(r.error.code === "LIMIT_EXCEEDED" ? "LIMIT_EXCEEDED" : "BAD_REQUEST", file, String(r.error.message ?? "failed").slice(0, 4000));
  if (typeof r.spec !== "string" || typeof r.nodes !== "number") throw new Fault("BAD_REQUEST", file, "the template could not be compiled");
  if (r.spec.length > MAX_CODE_CHARS) throw new Fault("LIMIT_EXCEEDED", file, "the template compiles to more code than the sandbox allows");
  const entry = { key, spec: r.spec, nodes: r.nodes };
  specCache.set(key, entry);
  specCacheBytes += entry.spec.length;
  for (const [oldKey, old] of specCache) {
    if (specCacheBytes <= SPEC_CACHE_BYTES) break;
    specCache.delete(oldKey);
    specCacheBytes -= old.spec.length;
  }
  return entry;
}

/**
 * The isolate's compiler context: a fresh context with Handlebars' compiler added (from the code
 * cache made at start), made when the isolate first needs a source compiled or checked, under the
 * limits of the step that needs it (an isolate ended meanwhile answers as for the step's own calls).
 * Only Folio's harness and Handlebars run in it, on sources as strings (compiledSpec).
 */
function compilerContext(isolate, step) {
  const k = keptOf(isolate);
  k.compiler ??= step
    .call(async (timeout) => {
      const context = await isolate.createContext();
      try {
        const script = await isolate.compileScript(handlebarsSource, { filename: "handlebars.js", cachedData: compilerCache });
        try {
          await script.run(context, { timeout });
        } finally {
          script.release();
        }
        return context;
      } catch (e) {
        context.release();
        throw e;
      }
    }, "handlebars.js")
    .catch((e) => {
      k.compiler = undefined;
      throw e;
    });
  return k.compiler;
}

/** The V8 script that gives a context a precompiled template (`__folio.spec(key, {...})`), kept compiled in the isolate when small. */
async function specScript(isolate, entry) {
  const k = keptOf(isolate);
  const have = k.scripts.get(entry.key);
  if (have) {
    k.scripts.delete(entry.key);
    k.scripts.set(entry.key, have);
    return have.script;
  }
  const script = await isolate.compileScript(`__folio.spec(${JSON.stringify(entry.key)}, ${entry.spec});`, { filename: "folio-template.js" });
  if (entry.spec.length > ISOLATE_SCRIPT_MAX) return script;
  k.scripts.set(entry.key, { script, bytes: entry.spec.length });
  k.scriptBytes += entry.spec.length;
  for (const [oldKey, old] of k.scripts) {
    if (k.scriptBytes <= ISOLATE_SCRIPT_BYTES) break;
    k.scripts.delete(oldKey);
    k.scriptBytes -= old.bytes;
    old.script.release();
  }
  return script;
}

class Fault extends Error {
  constructor(code, file, message) {
    super(message);
    this.code = code;
    this.file = file;
  }
}

/** The deepest nesting of arrays and objects in JSON text, stopping past `max`. */
function jsonDepth(json, max) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return 0;
}

const bytes = (s) => Buffer.byteLength(s ?? "");

/**
 * One step's time limits, counted over the isolate calls it makes: CPU_MS of the isolate's own CPU
 * time (isolated-vm's cpuTime, read every CPU_CHECK_MS while a call runs; past it the isolate is
 * disposed), and WALL_MS of running time, the isolate's own `timeout`, for a step that waits on a
 * machine too busy to give it the CPU.
 */
class Step {
  constructor(job, name) {
    this.job = job;
    this.name = name;
    this.cpu = 0;
    this.wall = 0;
    this.overCpu = false;
    // Console lines copied as the step makes them (the harness calls this without waiting for it),
    // kept for a step whose isolate is disposed at a limit; capped here, whoever calls it.
    this.tapped = [];
    this.tap = new ivm.Callback(
      (step, level, message) => {
        if (this.tapped.length < MAX_CONSOLE) this.tapped.push({ step: String(step).slice(0, 300), level: String(level), message: String(message).slice(0, MAX_CONSOLE_CHARS) });
      },
      { ignored: true },
    );
  }
  /** Runs `fn(timeoutMs)`, mapping the isolate's own ends (time, memory, disposal) to faults. */
  async call(fn, file = this.name) {
    const isolate = this.job.isolate;
    const wallLeft = WALL_MS - this.wall;
    if (this.cpu >= CPU_MS) throw this.cpuFault();
    if (wallLeft <= 0) throw this.wallFault();
    const started = performance.now();
    const cpuStart = isolate.cpuTime;
    const cpuNow = () => this.cpu + Number(isolate.cpuTime - cpuStart) / 1e6;
    const watch = setInterval(() => {
      if (isolate.isDisposed || cpuNow() <= CPU_MS) return;
      this.overCpu = true;
      isolate.dispose();
    }, CPU_CHECK_MS);
    try {
      return await fn(Math.max(1, Math.ceil(wallLeft)));
    } catch (caught) {
      const e = /** @type {any} */ (caught);
      const message = String(e?.message ?? e);
      if (this.job.cancelled) throw new Fault("CANCELLED", this.name, "cancelled");
      if (this.overCpu) throw this.cpuFault();
      if (/timed out/i.test(message)) throw this.wallFault();
      if (/memory limit|disposed/i.test(message)) {
        this.job.spoiled = true;
        throw new Fault("LIMIT_EXCEEDED", this.name, `needed more than ${MEMORY_MB} MiB of memory`);
      }
      // The caller's code threw at its top level (helpers.js, a script): its fault, named with its line.
      const name = typeof e?.name === "string" && e.name !== "Error" ? `${e.name}: ` : "";
      const at = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:(\\d+):\\d+`).exec(String(e?.stack ?? ""));
      throw new Fault("BAD_REQUEST", file, `${name}${message.slice(0, 2000)}${at ? ` (line ${at[1]})` : ""}`);
    } finally {
      clearInterval(watch);
      if (!isolate.isDisposed) this.cpu = cpuNow();
      this.wall += performance.now() - started;
    }
  }
  cpuFault() {
    this.job.spoiled = true;
    return new Fault("LIMIT_EXCEEDED", this.name, `used more than ${CPU_MS / 1000} s of CPU`);
  }
  wallFault() {
    this.job.spoiled = true;
    return new Fault("LIMIT_EXCEEDED", this.name, `ran longer than ${WALL_MS / 1000} s (the machine too busy to give it its ${CPU_MS / 1000} s of CPU)`);
  }
}

/** A caller's JavaScript file compiled with its name, so that syntax errors and stacks name it. */
async function compileFile(isolate, step, source, filename) {
  try {
    // why small files at once: compiling only parses (no caller code runs), and an async call costs a
    // trip through a thread of its own; a large file is parsed there, not holding up other jobs.
    if (source.length <= SYNC_DATA_BYTES) return isolate.compileScriptSync(source, { filename });
    return await isolate.compileScript(source, { filename });
  } catch (caught) {
    const e = /** @type {any} */ (caught);
    if (e?.name === "SyntaxError") {
      const m = /\[[^\]]*:(\d+):\d+\]\s*$/.exec(String(e.message));
      throw new Fault("BAD_REQUEST", filename, `${String(e.message).replace(/\s*\[[^\]]*\]\s*$/, "")}${m ? ` (line ${m[1]})` : ""}`);
    }
    if (/memory limit|disposed/i.test(String(e?.message))) throw new Fault("LIMIT_EXCEEDED", step.name, `needed more than ${MEMORY_MB} MiB of memory`);
    throw e;
  }
}

function harnessResult(r, step, out) {
  if (!r || typeof r !== "object") throw new Fault("BAD_REQUEST", step.name, "the step's code replaced the sandbox's own functions");
  if (Array.isArray(r.console)) {
    step.consoleTaken = true;
    keepConsole(out, r.console, r.calls);
  }
  if (r.error) {
    const { code, file, message } = r.error;
    throw new Fault(code === "LIMIT_EXCEEDED" ? "LIMIT_EXCEEDED" : "BAD_REQUEST", String(file ?? step.name).slice(0, 300), String(message ?? "failed").slice(0, 4000));
  }
  return r;
}

function keepConsole(out, entries, calls) {
  for (const e of entries) {
    if (out.console.length >= MAX_CONSOLE) break;
    const level = ["log", "info", "warn", "error", "debug"].includes(e?.level) ? e.level : "log";
    out.console.push({ step: String(e?.step ?? ""), level, message: String(e?.message ?? "").slice(0, MAX_CONSOLE_CHARS) });
  }
  void calls;
}

/**
 * A step that failed before the harness could answer (helpers.js or a script throwing at its top
 * level) still has its console lines in its context: they are read once, so that a failed run
 * answers what it logged (docs/api.md). A disposed isolate (a limit) has none left to read: the
 * step's copy (Step.tapped) is used.
 */
async function failedStepConsole(step, context, out, e) {
  if (!(e instanceof Fault) || step.consoleTaken) return;
  if (!step.job.isolate.isDisposed) {
    try {
      const r = await context.evalClosure("return __folio.consoleNow()", [], { ...copy, timeout: 100 });
      if (r && Array.isArray(r.console)) return keepConsole(out, r.console, r.calls);
    } catch {
      // the step's code replaced the harness, or its isolate ended: the copy below
    }
  }
  // Ended at a limit: the lines the harness copied out as they were made (their calls arrive
  // before the end does; one turn of the event loop to be sure).
  await new Promise((resolve) => setImmediate(resolve));
  keepConsole(out, step.tapped);
}

/**
 * compileOnly (publishing's syntax check): every file compiled as a render's step would compile it,
 * nothing run. Templates and partials are precompiled in the compiler context (compiledSpec, which
 * also finds what only Handlebars' compiler refuses, such as a partial given two arguments, and
 * leaves the result cached for the first render); helpers.js and the scripts are compiled as V8
 * scripts, which only parses them. Each file's faults name it.
 */
async function checkJob(isolate, job) {
  for (const script of job.scripts ?? []) {
    const file = `script ${script.name}`;
    await compileFile(isolate, new Step(job, file), scriptCode(script, file), file);
  }
  if (!job.restricted && job.helpers) await compileFile(isolate, new Step(job, "helpers.js"), job.helpers, "helpers.js");
  for (const spec of job.steps) await stepSpecs(isolate, job, new Step(job, spec.name), spec);
}

// why wrapped in a function: each script's declarations stay its own (two scripts may both
// declare beforeRender); the wrapper adds nothing before the first line's text but on that line,
// so line numbers stay the script's.
/**
 * Gives a context its step's name and data (the harness's begin). Small data at once (evalClosureSync:
 * harness code only, no caller's yet, about 5 µs against 70 for an async call); large data through a
 * thread of its own, so that parsing megabytes does not hold up other jobs' calls.
 */
const SYNC_DATA_BYTES = 64 * 1024;
/** @param {{ spec: { name: string }, step: { tap: unknown } }} [next] the body step that follows in this context (the scripts' step only) */
function begin(context, name, data, tap, timeout, fresh = true, next) {
  const args = [name, data, tap, next?.spec.name, next?.step.tap];
  // Only in a context where no caller code has run yet (see giveBack for why).
  if (fresh && (data?.length ?? 0) <= SYNC_DATA_BYTES) return context.evalClosureSync("__folio.begin($0, $1, $2, $3, $4)", args, { ...copy, timeout });
  return context.evalClosure("__folio.begin($0, $1, $2, $3, $4)", args, { ...copy, timeout });
}

const scriptCode = (script, file, last = false) => `__folio.callBeforeRender(${JSON.stringify(file)}, (function () { ${script.source}\n;return typeof beforeRender === "function" ? beforeRender : undefined; })(), ${last})`;

/**
 * Runs the scripts in a fresh context. Returns that context, not yet released, with `next` (the
 * body step: its spec and its Step) begun in it and its templates defined when they compiled: the
 * body step of the same render runs in it (issue 33's decision: the scripts and the body of one
 * render share one fresh context; never two renders, never a header or footer).
 */
async function runScripts(isolate, job, out, next) {
  const step = new Step(job, "scripts");
  const inBytes = bytes(out.data) + job.scripts.reduce((n, s) => n + bytes(s.source), 0);
  if (inBytes > MAX_IN_BYTES) throw new Fault("LIMIT_EXCEEDED", "scripts", `more than ${MAX_IN_BYTES.toLocaleString("en-US")} bytes of source and data`);
  let keys;
  const context = await takeContext(isolate);
  job.contexts.push(context);
  try {
    // With a body step to follow in this context, the scripts' end begins it (its name, the data as
    // JSON gives it, its console): given here, one crossing fewer.
    await step.call((timeout) => begin(context, "scripts", out.data, step.tap, timeout, true, next));
    // The body's templates defined while the context is fresh (defineSpecs). A syntax error is left
    // for the body step to find after the scripts, as it would be in a context of its own; a limit
    // is the body's at once.
    if (next) {
      try {
        keys = await defineSpecs(isolate, job, next.step, next.spec, context, true);
      } catch (e) {
        if (!(e instanceof Fault) || e.code !== "BAD_REQUEST" || isolate.isDisposed) throw e;
      }
    }
    let r;
    for (const [i, script] of job.scripts.entries()) {
      const file = `script ${script.name}`;
      const last = i === job.scripts.length - 1;
      // A beforeRender that returns (no promise) is done in this call, and the last one's call also
      // ends the scripts (harness: callBeforeRender).
      const compiled = await compileFile(isolate, step, scriptCode(script, file, last), file);
      r = harnessResult(await step.call((timeout) => compiled.run(context, { timeout, copy: true }), file), step, out);
      if (r.pending !== true) continue;
      // A promise: read in a separate call, after the isolate has run its microtasks (a promise
      // pending then never settles). After the last script, the same call ends the scripts.
      r = harnessResult(await step.call((timeout) => context.evalClosure("const s = __folio.settled($0); return $1 && s && !s.error ? __folio.endScripts() : s", [file, last], { ...copy, timeout })), step, out);
    }
    if (typeof r.data !== "string") throw new Fault("BAD_REQUEST", "scripts", "beforeRender left data that is not JSON");
    if (jsonDepth(r.data, MAX_DEPTH) > MAX_DEPTH) throw new Fault("BAD_REQUEST", "scripts", `beforeRender left data nested more than ${MAX_DEPTH} levels deep`);
    out.data = r.data;
  } catch (e) {
    await failedStepConsole(step, context, out, e);
    context.release();
    throw e;
  }
  if (next) return { context, step: next.step, keys };
  context.release();
  return undefined;
}

/**
 * A step's template and its partials, precompiled (or from the cache), in the order of the step's
 * files: the limit of syntax nodes is the step's, counted over them all.
 */
async function stepSpecs(isolate, job, step, spec) {
  /** @type {{ file: string, source: string, name?: string }[]} */
  const files = [{ file: spec.name, source: spec.source }];
  if (!job.restricted) for (const [name, source] of Object.entries(job.partials ?? {})) files.push({ file: `partial ${name}`, source: String(source), name });
  let nodes = 0;
  const specs = [];
  for (const f of files) {
    const entry = await compiledSpec(isolate, step, f.file, f.source, job.restricted);
    nodes += entry.nodes;
    if (nodes > MAX_NODES) throw new Fault("LIMIT_EXCEEDED", f.file, `more than ${MAX_NODES.toLocaleString("en-US")} syntax nodes in this step`);
    specs.push({ ...f, entry });
  }
  return specs;
}

/** A step of the job; `given`, the scripts' context it runs in (runScripts), else a fresh one. */
async function runStep(isolate, job, spec, out, given) {
  const step = given?.step ?? new Step(job, spec.name);
  const partialBytes = job.restricted ? 0 : Object.values(job.partials ?? {}).reduce((n, s) => n + bytes(s), 0);
  const inBytes = bytes(out.data) + bytes(spec.source) + partialBytes + (job.restricted ? 0 : bytes(job.helpers));
  if (inBytes > MAX_IN_BYTES) {
    given?.context.release(); // the scripts' context, handed to this step
    throw new Fault("LIMIT_EXCEEDED", spec.name, `more than ${MAX_IN_BYTES.toLocaleString("en-US")} bytes of source and data`);
  }
  const context = given?.context ?? (await takeContext(isolate));
  job.contexts.push(context);
  try {
    const helpers = !job.restricted && typeof job.helpers === "string" && job.helpers.length > 0;
    // The step's name and data first, so that helpers.js's own console calls carry the name (in
    // the scripts' context, the scripts' last call did it: endScripts).
    if (!given) await step.call((timeout) => begin(context, spec.name, out.data, step.tap, timeout));
    // The templates next, before helpers.js: no caller code has run in a fresh context yet, so
    // their definitions (Folio's code) run at once (see defineSpecs).
    const keys = given?.keys ?? (await defineSpecs(isolate, job, step, spec, context, !given));
    const render = `__folio.renderSpecs(${JSON.stringify(keys.templateKey)}, ${JSON.stringify(keys.partialKeys)}, ${helpers}, ${!!job.restricted})`;
    let r;
    if (helpers) {
      // helpers.js and the render in one call (one crossing fewer): the render's call follows the
      // file's last line, so the file's own lines and names stay its own, and a fault at its top
      // level ends the call before the render, named as helpers.js with its line.
      const compiled = await compileFile(isolate, step, `${job.helpers}\n;${render}`, "helpers.js");
      r = harnessResult(await step.call((timeout) => compiled.run(context, { timeout, copy: true }), "helpers.js"), step, out);
    } else r = harnessResult(await step.call((timeout) => context.evalClosure(`return ${render}`, [], { ...copy, timeout })), step, out);
    if (typeof r.html !== "string") throw new Fault("BAD_REQUEST", spec.name, "the template did not produce text");
    if (bytes(r.html) > MAX_OUT_BYTES) throw new Fault("LIMIT_EXCEEDED", spec.name, `more than ${MAX_OUT_BYTES.toLocaleString("en-US")} bytes of HTML`);
    out.outputs[spec.name] = r.html;
  } catch (e) {
    await failedStepConsole(step, context, out, e);
    throw e;
  } finally {
    context.release();
  }
}

/**
 * Gives a context a step's precompiled template and partials; answers their keys. `fresh`: no
 * caller code has run in the context yet, so the definitions run at once (runSync: about 50 µs
 * less a file than an async call, 0.4 ms a render measured). Otherwise async: a built-in that
 * caller code replaced could run without end while this process's only thread waited (issue 33).
 */
async function defineSpecs(isolate, job, step, spec, context, fresh) {
  const keys = { templateKey: "", partialKeys: {} };
  for (const { file, name, entry } of await stepSpecs(isolate, job, step, spec)) {
    const script = await specScript(isolate, entry);
    await step.call((timeout) => (fresh ? script.runSync(context, { timeout }) : script.run(context, { timeout })), file);
    if (name === undefined) keys.templateKey = entry.key;
    else keys.partialKeys[name] = entry.key;
  }
  return keys;
}

/** A data schema applied to data (a job with `schema`): one step, "dataSchema", under the same limits. */
/** `check`: the schema, its draft and the data it applies to (a check alone, or before a render's steps). */
async function runSchemaCheck(isolate, job, out, check = job) {
  const step = new Step(job, "dataSchema");
  if (bytes(check.schema) + bytes(check.data) > MAX_IN_BYTES) throw new Fault("LIMIT_EXCEEDED", "dataSchema", `more than ${MAX_IN_BYTES.toLocaleString("en-US")} bytes of schema and data`);
  const context = await takeContext(isolate);
  job.contexts.push(context);
  try {
    const r = harnessResult(await step.call((timeout) => context.evalClosure("return __folio.validate($0, $1, $2)", [check.schema, check.data, String(check.draft)], { ...copy, timeout })), step, out);
    if (typeof r.unusable === "string") return { unusable: r.unusable.slice(0, 2000) };
    if (!Array.isArray(r.details)) throw new Fault("BAD_REQUEST", "dataSchema", "the schema check gave no result");
    const details = r.details.slice(0, 100).map((d) => (typeof d?.path === "string" && d.path ? { path: d.path.slice(0, 2000), message: String(d?.message ?? "").slice(0, 2000) } : { message: String(d?.message ?? "").slice(0, 2000) }));
    return { details, more: r.more === true };
  } finally {
    context.release();
  }
}

/** The job running in this process, by its id (at most one: the pool gives one job at a time). */
const running = new Map();

async function runJob(job) {
  const out = { outputs: {}, data: job.data, console: [] };
  job.contexts = [];
  const isolate = await takeIsolate();
  job.isolate = isolate;
  const cpuStart = isolate.cpuTime;
  try {
    // Cancelled while it waited for its isolate.
    if (job.cancelled) return { error: { code: "CANCELLED", file: "", message: "cancelled", console: [] } };
    if (job.schema !== undefined) return { ...out, data: undefined, check: await runSchemaCheck(isolate, job, out) };
    if (job.compileOnly) {
      await checkJob(isolate, job);
      return { ...out, data: undefined };
    }
    // A render's data schema travels with its steps (one crossing, not two): applied first, and
    // the steps run only on data it admits; the caller answers the violations.
    if (job.check) {
      const check = await runSchemaCheck(isolate, job, out, job.check);
      if ("unusable" in check || check.details.length) return { ...out, data: undefined, check };
      job.progress(job.scripts?.length ? "scripts" : (job.steps[0]?.name ?? "template"));
    }
    // The pool charges a process's death to the step it heard of last, the job's first step
    // unless told otherwise: each later step says so as it starts (one message fewer per job).
    let shared;
    const body = job.steps[0];
    if (job.scripts?.length) shared = await runScripts(isolate, job, out, !job.restricted && body?.name === "template" ? { spec: body, step: new Step(job, body.name) } : undefined);
    for (const [i, spec] of job.steps.entries()) {
      if (i > 0 || job.scripts?.length) job.progress(spec.name);
      await runStep(isolate, job, spec, out, i === 0 ? shared : undefined);
    }
    // Without scripts the data is the caller's own: not copied back.
    return job.scripts?.length ? out : { ...out, data: undefined };
  } catch (e) {
    if (e instanceof Fault) {
      const error = { code: e.code, file: e.file, message: e.message, console: out.console };
      return { error };
    }
    throw e;
  } finally {
    // A step past its time or memory limit may have left the isolate half-done: it is not reused.
    if (job.spoiled || job.cancelled) {
      if (!isolate.isDisposed) isolate.dispose();
      refill();
    } else giveBack(isolate, isolate.isDisposed ? 0 : Number(isolate.cpuTime - cpuStart) / 1e6);
  }
}

// The pool's protocol (lib/processes/pool.ts): one job at a time, `{id, job: "run", args: [job]}`;
// `{id, step}` as each of several steps starts (a process that dies is charged to that step), then
// `{id, ok, value}`. The id is the pool's, unguessable, and answered only for its own job.
/** @param {FromProcess} message @param {() => void} [sent] */
function send(message, sent) {
  process.send?.(message, undefined, undefined, sent);
}

process.on("message", async (/** @type {import("../processes/protocol").ToProcess} */ m) => {
  const { id } = m ?? {};
  if (typeof id !== "string") return;
  if ("cancel" in m) {
    // The caller went away: the job's isolate is disposed, its step ends CANCELLED, and the job is
    // still answered (the pool waits for that answer before it gives this process another job).
    const job = running.get(id);
    if (job) {
      job.cancelled = true;
      if (job.isolate && !job.isolate.isDisposed) job.isolate.dispose();
    }
    return;
  }
  const job = /** @type {any} */ (m.args?.[0]);
  if (m.job !== "run" || typeof job !== "object" || job === null) return void send({ id, ok: false, error: { name: "Error", message: "not a sandbox job" } });
  job.progress = (/** @type {string} */ step) => send({ id, step }, () => {});
  lastActivity = performance.now();
  running.set(id, job);
  try {
    const value = await runJob(job);
    send({ id, ok: true, value });
  } catch (e) {
    send({ id, ok: true, value: { error: { code: "INTERNAL", file: "", message: String(/** @type {any} */ (e)?.message ?? e).slice(0, 500) } } });
  } finally {
    running.delete(id);
    lastActivity = performance.now();
  }
});
process.on("disconnect", () => process.exit(0));
refill();
send({ ready: true });
