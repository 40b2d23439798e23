// What the Handlebars editor offers as completions inside a mustache (issue 34, item 15): the
// sample data's fields, helpers.js's helpers and the built-in ones, partial names after `{{>`,
// `localization.` keys of the translations and `content.` fields. Pure: the browser imports it; the
// code editor asks it with the text of the line up to the cursor.

/** One thing offered: what is inserted, its kind (CodeMirror's completion types) and a short note. */
export type HbsOption = { label: string; type: "variable" | "function" | "keyword" | "property" | "class"; detail?: string };

/** What the template can name: from the editor's tabs as they are now. */
export type HbsSources = {
  /** The sample data set previewed (parsed), or undefined when it does not parse. */
  data?: unknown;
  /** helpers.js's text. */
  helpers: string;
  partials: string[];
  /** The translation files' parsed texts (their keys are `localization.<key>`). */
  translations: unknown[];
  contentFields: string[];
};

/** The built-in helpers, as docs/api.md lists them. */
const BLOCK_BUILTINS: HbsOption[] = [
  { label: "each", type: "keyword", detail: "block: once per item" },
  { label: "if", type: "keyword", detail: "block: when truthy" },
  { label: "unless", type: "keyword", detail: "block: when falsy" },
  { label: "with", type: "keyword", detail: "block: with a new context" },
];
const INLINE_BUILTINS: HbsOption[] = [
  { label: "lookup", type: "keyword", detail: "lookup obj key" },
  { label: "log", type: "keyword", detail: "to the console output" },
  { label: "pageNumber", type: "keyword", detail: "header and footer" },
  { label: "totalPages", type: "keyword", detail: "header and footer" },
];
const DATA_VARIABLES: HbsOption[] = [
  { label: "this", type: "keyword", detail: "the current context" },
  { label: "else", type: "keyword" },
  { label: "@index", type: "keyword", detail: "in each" },
  { label: "@first", type: "keyword", detail: "in each" },
  { label: "@last", type: "keyword", detail: "in each" },
  { label: "@key", type: "keyword", detail: "in each over an object" },
  { label: "@root", type: "keyword", detail: "the data" },
];

const MAX_PATHS = 400;
const MAX_DEPTH = 4;
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
/** A key Handlebars reads as a plain path segment; others need `[key]`. */
const plain = (k: string) => /^[A-Za-z_$][\w$-]*$/.test(k);
const segment = (k: string) => (plain(k) ? k : `[${k.replace(/]/g, "")}]`);

/**
 * The helpers helpers.js declares: what becomes a global function, so the sandbox registers it
 * (top-level `function` declarations and `var x = function / arrow`; `let` and `const` make no
 * global property, so they are not helpers). Read from the text, never run.
 */
export function helperNames(source: string): string[] {
  const names = new Set<string>();
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  for (const m of text.matchAll(/^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/gm)) names.add(m[1]!);
  for (const m of text.matchAll(/^var\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/gm)) names.add(m[1]!);
  return [...names];
}

/**
 * Dotted paths of the data (`customer.name`), breadth first up to four levels and 400 paths; an
 * array's items' fields are offered by name too, for use inside `{{#each list}}`.
 */
export function dataPaths(data: unknown): HbsOption[] {
  const out = new Map<string, HbsOption>();
  const queue: { value: unknown; path: string; depth: number }[] = [{ value: data, path: "", depth: 0 }];
  while (queue.length && out.size < MAX_PATHS) {
    const { value, path, depth } = queue.shift()!;
    const item = Array.isArray(value) ? value.find(isRecord) : undefined;
    if (item) {
      // The fields of a list's items, as the block over the list names them.
      for (const k of Object.keys(item)) if (!out.has(segment(k)) && out.size < MAX_PATHS) out.set(segment(k), { label: segment(k), type: "property", detail: `in each ${path || "item"}` });
      continue;
    }
    if (!isRecord(value) || depth >= MAX_DEPTH) continue;
    for (const [k, v] of Object.entries(value)) {
      const p = path ? `${path}.${segment(k)}` : segment(k);
      if (out.size >= MAX_PATHS) break;
      out.set(p, { label: p, type: "variable", detail: Array.isArray(v) ? "list" : isRecord(v) ? "object" : typeof v });
      queue.push({ value: v, path: p, depth: depth + 1 });
    }
  }
  return [...out.values()];
}

/** `localization.<key>` paths of the first translation that has keys (all files have the same keys, mostly). */
function localizationPaths(translations: unknown[]): HbsOption[] {
  const keys = new Set<string>();
  for (const t of translations) if (isRecord(t)) for (const k of Object.keys(t)) keys.add(k);
  return [...keys].slice(0, MAX_PATHS).map((k) => ({ label: `localization.${segment(k)}`, type: "variable" as const, detail: "translation" }));
}

/**
 * Completions for the line up to the cursor: undefined outside a mustache. `from` is where the
 * word being completed starts in `before`.
 */
export function hbsCompletions(before: string, sources: HbsSources): { from: number; options: HbsOption[] } | undefined {
  const open = before.lastIndexOf("{{");
  if (open < 0 || before.indexOf("}}", open) >= 0) return undefined;
  const inside = before.slice(open + 2);
  // A comment is not completed.
  if (/^~?!/.test(inside)) return undefined;
  const word = /[\w$@.\-[\]]*$/.exec(inside)![0];
  const from = before.length - word.length;
  const head = /^\{?~?\s*([#/>^&]?)\s*/.exec(inside)!;
  const sigil = head[1];
  // Words before the one typed: none means the first word of the mustache (a helper's place).
  const first = inside.slice(head[0].length, inside.length - word.length).trim() === "";
  const helpers = helperNames(sources.helpers).map((name) => ({ label: name, type: "function" as const, detail: "helpers.js" }));
  if (sigil === ">") return first ? { from, options: sources.partials.map((p) => ({ label: p, type: "class" as const, detail: "partial" })) } : { from, options: dataPaths(sources.data) };
  const data = [...dataPaths(sources.data), ...localizationPaths(sources.translations), ...sources.contentFields.map((f) => ({ label: `content.${segment(f)}`, type: "variable" as const, detail: "content field" }))];
  if (sigil === "#" || sigil === "/") return first ? { from, options: [...BLOCK_BUILTINS, ...helpers] } : { from, options: [...data, ...DATA_VARIABLES] };
  if (first) return { from, options: [...helpers, ...INLINE_BUILTINS, ...data, ...DATA_VARIABLES] };
  return { from, options: [...data, ...DATA_VARIABLES] };
}
