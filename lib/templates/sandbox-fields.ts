/**
 * The sandbox names a template's files as its messages do ("template", "header", "partial
 * invoice-row", "helpers.js", "script totals"); a refusal's `details[].path` names the field that
 * holds the file instead (decisions.md: Response conventions; docs/api.md, Handlebars templates),
 * so a client finds it the way it finds any other bad value. The message keeps the file's name.
 */
import { AppError, isAppError } from "../errors";

/** The content field of a Handlebars template's file: `templateHtml`, `header`, `footer`, `helpers`, `partials.NAME`, `scripts.N`. */
export function handlebarsFieldOf(file: string, content: { scripts?: readonly { name: string }[] }): string {
  if (file === "template") return "templateHtml";
  if (file === "helpers.js") return "helpers";
  if (file.startsWith("partial ")) return `partials.${file.slice("partial ".length)}`;
  if (file.startsWith("script ")) {
    const i = content.scripts?.findIndex((s) => s.name === file.slice("script ".length)) ?? -1;
    return i >= 0 ? `scripts.${i}` : "scripts";
  }
  return file; // header, footer, scripts (the scripts' step as a whole), data, dataSchema
}

/** The request field of a string render's file (POST /v1/renders/string): `template`, `partials.NAME`. */
export const stringFieldOf = (file: string): string => (file.startsWith("partial ") ? `partials.${file.slice("partial ".length)}` : file);

/** Runs sandbox work; a refusal comes back with each detail's path turned from a file name into its field by `fieldOf`. */
export async function inFields<T>(work: Promise<T>, fieldOf: (file: string) => string): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (!isAppError(e) || !e.details?.some((d) => d.path !== undefined)) throw e;
    throw new AppError(e.code, e.message, {
      status: e.status,
      retryable: e.retryable,
      details: e.details.map((d) => (d.path === undefined ? d : { ...d, path: fieldOf(d.path) })),
      renderId: e.renderId,
      headers: e.headers,
      current: e.current,
      console: e.console,
    });
  }
}
