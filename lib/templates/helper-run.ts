// Running one helper of helpers.js with arguments, from the Handlebars editor (issue 34, item 15):
// a preview (POST /v1/templates/{id}/preview, format html) of the draft as it is in the editor, with
// template.html replaced by one call of the helper and the arguments in the data. Pure: the
// browser imports it, and the unit test checks the request it makes.
import type { HbsContent } from "./hbs-editor-tabs";
import { parseJsonText } from "./json-text";

/** Where the arguments travel in the data (beside the sample data, which stays the helper's `this`). */
export const RUN_KEY = "__folioRun";

export type HelperRun = { ok: true; body: { format: "html"; content: HbsContent; data: Record<string, unknown> } } | { ok: false; message: string };

/**
 * The preview request that calls `name` once: `argsText` a JSON array of its arguments, `hashText`
 * an optional JSON object of its `options.hash`. Scripts, header, footer, stylesheets and the data
 * schema (which the arguments would not pass) are left out
 * (the answer is the helper's output alone); the data is the previewed sample data, with the
 * arguments under RUN_KEY.
 */
export function helperRunRequest(name: string, argsText: string, hashText: string, content: HbsContent, data: Record<string, unknown>): HelperRun {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return { ok: false, message: "Pick a helper to run" };
  const args = parseJsonText(argsText.trim() || "[]");
  if (!args.ok || !Array.isArray(args.value)) return { ok: false, message: `Arguments must be a JSON array, such as [1234.5, "EUR"]${args.ok ? "" : `: ${args.message}`}` };
  const hash = parseJsonText(hashText.trim() || "{}");
  if (!hash.ok || hash.value === null || typeof hash.value !== "object" || Array.isArray(hash.value)) return { ok: false, message: `Options must be a JSON object, such as {"currency": "EUR"}${hash.ok ? "" : `: ${hash.message}`}` };
  const keys = Object.keys(hash.value);
  const bad = keys.find((k) => !/^[A-Za-z_$][\w$-]*$/.test(k));
  if (bad !== undefined) return { ok: false, message: `"${bad}" cannot be an option's name (letters, digits, _ and -, not first a digit)` };
  const call = [name, ...args.value.map((_, i) => `${RUN_KEY}.args.[${i}]`), ...keys.map((k) => `${k}=${RUN_KEY}.hash.[${k}]`)].join(" ");
  const runContent: HbsContent = { ...content, templateHtml: `{{{${call}}}}` };
  for (const k of ["header", "footer", "scripts", "stylesheets", "dataSchema"] as const) delete runContent[k];
  return { ok: true, body: { format: "html", content: runContent, data: { ...data, [RUN_KEY]: { args: args.value, hash: hash.value } } } };
}
