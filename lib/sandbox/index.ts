// TEMPORARY: replaced by the sandbox branch
//
// A stand-in with the exact API of the real lib/sandbox (V8 isolates in a contained process), so the
// handlebars template kind can be built and tested before that branch lands. It runs helpers.js,
// scripts and Handlebars IN THIS PROCESS and must never ship: the merge drops this file for the
// sandbox branch's own.
import Handlebars from "handlebars";
import { AppError } from "../errors";

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
};
export type SandboxResult = { outputs: Record<string, string>; data: unknown; console: SandboxConsoleEntry[] };

const LEVELS = ["log", "info", "warn", "error", "debug"] as const;

function fault(file: string, e: unknown): AppError {
  if (e instanceof AppError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new AppError("BAD_REQUEST", `${file}: ${message}`, { details: [{ path: file, message }] });
}

function consoleFor(step: string, out: SandboxConsoleEntry[]) {
  const c: Record<string, (...args: unknown[]) => void> = {};
  for (const level of LEVELS) {
    c[level] = (...args: unknown[]) => {
      if (out.length < 100) out.push({ step, level, message: args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ").slice(0, 2000) });
    };
  }
  return c;
}

/** Top-level function names of a helpers.js source (function declarations only). */
function declaredFunctions(source: string): string[] {
  return [...source.matchAll(/^\s*(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/gm)].map((m) => m[1]!);
}

export async function runSandbox(job: SandboxJob, signal?: AbortSignal): Promise<SandboxResult> {
  signal?.throwIfAborted();
  const logs: SandboxConsoleEntry[] = [];
  let data: unknown = structuredClone(job.data ?? {});
  for (const script of job.scripts ?? []) {
    const file = `script ${script.name}`;
    let beforeRender: unknown;
    try {
      beforeRender = new Function("console", `${script.source}\n;return typeof beforeRender === "function" ? beforeRender : undefined;`)(consoleFor(file, logs));
    } catch (e) {
      throw fault(file, e);
    }
    if (typeof beforeRender !== "function") {
      throw new AppError("BAD_REQUEST", `${file}: defines no beforeRender(data) function`, { details: [{ path: file, message: "defines no beforeRender(data) function" }] });
    }
    try {
      const result: unknown = await (beforeRender as (d: unknown) => unknown)(data);
      if (result !== undefined) data = result;
    } catch (e) {
      throw fault(file, e);
    }
  }
  const hb = Handlebars.create();
  hb.registerHelper("pageNumber", () => new hb.SafeString('<span class="pageNumber"></span>'));
  hb.registerHelper("totalPages", () => new hb.SafeString('<span class="totalPages"></span>'));
  if (!job.restricted) {
    if (job.helpers) {
      const names = declaredFunctions(job.helpers);
      let fns: Record<string, unknown>;
      try {
        fns = new Function("console", "Handlebars", `${job.helpers}\n;return {${names.map((n) => `${JSON.stringify(n)}: typeof ${n} === "function" ? ${n} : undefined`).join(",")}};`)(
          consoleFor("helpers.js", logs),
          hb,
        ) as Record<string, unknown>;
      } catch (e) {
        throw fault("helpers.js", e);
      }
      for (const [name, fn] of Object.entries(fns)) if (typeof fn === "function") hb.registerHelper(name, fn as Handlebars.HelperDelegate);
    }
    for (const [name, source] of Object.entries(job.partials ?? {})) {
      try {
        hb.registerPartial(name, hb.compile(source));
        hb.precompile(source);
      } catch (e) {
        throw fault(`partial ${name}`, e);
      }
    }
  }
  const outputs: Record<string, string> = {};
  for (const step of job.steps) {
    try {
      outputs[step.name] = hb.compile(step.source)(data);
    } catch (e) {
      throw fault(step.name, e);
    }
  }
  return { outputs, data, console: logs };
}
