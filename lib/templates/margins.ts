/**
 * The Handlebars page header and footer of a composition (spec: Composition > header, footer).
 * They compile and run in the sandbox (lib/sandbox: V8 isolates in a helper process, never this
 * process's realm), in its restricted mode: only the built-in helpers if, unless, each, with and
 * lookup, and pageNumber and totalPages; no partials, decorators or helpers.js; prototype access
 * denied (the Handlebars default); at most 10,000 each iterations and 1,000,000 characters; and
 * the sandbox's own limits of a step (time, memory, syntax nodes).
 */
import { runSandbox } from "../sandbox";

export type Margin = "header" | "footer";

/**
 * Renders the header and footer given with the caller's data, in one sandbox job (a step each).
 * `{{x}}` escapes data values; `{{{x}}}` is the template author's choice. Throws BAD_REQUEST naming
 * composition.header or composition.footer for a template error, LIMIT_EXCEEDED past a limit.
 */
export async function renderMargins(sources: Partial<Record<Margin, string>>, data: unknown, signal?: AbortSignal): Promise<Partial<Record<Margin, string>>> {
  const margins = (["header", "footer"] as const).filter((m) => sources[m]);
  if (!margins.length) return {};
  // The helpers pageNumber and totalPages shadow data fields of the same names.
  const { outputs } = await runSandbox({ restricted: true, steps: margins.map((m) => ({ name: `composition.${m}`, source: sources[m]! })), data }, signal);
  const out: Partial<Record<Margin, string>> = {};
  // why: the renderer turns the caller-HTML placeholders {{pageNumber}} and {{totalPages}} into page
  // numbers; a data value reading "{{totalPages}}" must stay text, so no "{{" leaves this step.
  for (const m of margins) out[m] = outputs[`composition.${m}`]!.replaceAll("{{", "{&#123;");
  return out;
}

/** One header or footer (tests, and callers with one margin). */
export async function renderMarginTemplate(source: string, data: unknown, where: Margin): Promise<string> {
  return (await renderMargins({ [where]: source }, data))[where]!;
}
