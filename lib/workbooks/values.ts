/**
 * The values of a workbook template's placeholder cells, computed in the sandbox (lib/sandbox) with
 * the template's helpers.js, partials and beforeRender scripts, as a Handlebars template's steps
 * are: one step per sheet with placeholders (source.ts). Errors name the sheet and cell.
 */
import { AppError } from "../errors";
import { runSandbox, type SandboxConsoleEntry } from "../sandbox";
import type { WorkbookPlan } from "./fill";
import { CELL_HELPER, cellsInError, workbookSteps } from "./source";

export type WorkbookCode = { helpers?: string; partials?: Record<string, string>; scripts?: { name: string; source: string }[] };

export type WorkbookValues = { values: Record<string, string>; console: SandboxConsoleEntry[] };

/** Runs the sheets' steps on `data`; `compileOnly` checks their syntax (publishing) without running them. */
export async function workbookValues(plan: WorkbookPlan, code: WorkbookCode, data: unknown, options: { compileOnly?: boolean; signal?: AbortSignal } = {}): Promise<WorkbookValues> {
  const steps = workbookSteps(plan);
  if (steps.length === 0) return { values: {}, console: [] };
  try {
    const r = await runSandbox(
      {
        helpers: `${code.helpers ?? ""}${CELL_HELPER}`,
        partials: code.partials,
        scripts: code.scripts,
        steps: steps.map((s) => ({ name: s.name, source: s.source })),
        data,
        compileOnly: options.compileOnly,
      },
      options.signal,
    );
    const values: Record<string, string> = {};
    for (const s of steps) values[s.path] = r.outputs[s.name] ?? "";
    return { values, console: r.console };
  } catch (e) {
    if (e instanceof AppError) cellsInError(e, steps, code.helpers);
    throw e;
  }
}
