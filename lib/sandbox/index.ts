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

/** Runs every step in the sandbox process; throws AppError BAD_REQUEST (syntax error naming the file — "template", "header", "partial invoice-row", "helpers.js", "script totals" — and line; script without beforeRender; data nested too deep) or LIMIT_EXCEEDED (CPU, memory, sizes, complexity) from lib/errors.ts. */
export async function runSandbox(job: SandboxJob, signal?: AbortSignal): Promise<SandboxResult> {
  void job;
  void signal;
  throw new Error("sandbox: not implemented yet");
}
