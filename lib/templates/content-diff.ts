// How a published version's content differs from the draft, file by file, as the editor's tabs show
// them: template.html, each partial, helpers.js, each script, header, footer, the stylesheets, page
// settings, each translation, each sample data set, the data schema, content fields and values (a
// component template's composition.json in place of the Handlebars files). Pure: the browser imports it.
// why per file: compared as one JSON value, each file was one long string on one line, so a changed
// comma in template.html showed as the whole template removed and added again.
// why canonical JSON for the JSON files: contents saved before migration 0024 came back from jsonb,
// whose key order is not the order they were written in (Postgres sorts object keys by length, then
// bytes), while the editor's draft keeps the order typed; comparing text would show a whole settings
// block removed and added again.
import { diffLines } from "diff";

/** JSON with every object's keys sorted and two-space indents, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** One file of a template's content as the diff shows it: what the editor calls it, and its text. */
export type ContentFile = { id: string; label: string; text: string };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const textOf = (v: unknown) => (typeof v === "string" ? v : canonicalJson(v));

/**
 * The files of a content, in the order of the editor's tabs. Text files (template.html, partials,
 * helpers, scripts, header, footer) are their text; the stylesheets one path a line; the rest
 * canonical JSON. A key the editor has no tab for is a file named by the key, so no change is hidden.
 */
export function contentFiles(content: unknown): ContentFile[] {
  if (!isRecord(content)) return content === undefined ? [] : [{ id: "content", label: "Content", text: textOf(content) }];
  const c = content;
  const files: ContentFile[] = [];
  const add = (id: string, label: string, value: unknown) => {
    if (value !== undefined) files.push({ id, label, text: textOf(value) });
  };
  /** One file per entry of a record (partials, translations), else the whole value as one. */
  const each = (key: string, label: (name: string) => string, whole: string) => {
    const v = c[key];
    if (isRecord(v)) for (const [name, text] of Object.entries(v)) add(`${key}.${name}`, label(name), text);
    else add(key, whole, v);
  };
  /** One file per item of a list of named items (scripts, sample data sets), else the whole value as one. */
  const eachNamed = (key: string, label: (name: string) => string, whole: string, part: (item: Record<string, unknown>) => unknown) => {
    const v = c[key];
    if (!Array.isArray(v)) return add(key, whole, v);
    v.forEach((item, i) => {
      const name = isRecord(item) && typeof item.name === "string" ? item.name : String(i + 1);
      add(`${key}.${name}`, label(name), isRecord(item) ? part(item) : item);
    });
  };
  // A component template keeps header, footer and stylesheets in composition; they get files of their own, as they get tabs.
  const composition = isRecord(c.composition) ? c.composition : undefined;
  const { header: layoutHeader, footer: layoutFooter, stylesheets: layoutStylesheets, ...layout } = composition ?? {};
  const stylesheets = c.stylesheets ?? layoutStylesheets;

  add("templateHtml", "template.html", c.templateHtml);
  add("composition", "composition.json", composition ? layout : c.composition);
  each("partials", (name) => `Partial ${name}`, "Partials");
  add("helpers", "helpers.js", c.helpers);
  eachNamed("scripts", (name) => `Script ${name}`, "Scripts", (s) => s.source);
  add("header", "Page header", c.header ?? layoutHeader);
  add("footer", "Page footer", c.footer ?? layoutFooter);
  add("stylesheets", "templateHtml" in c ? "Styles" : "Stylesheets", Array.isArray(stylesheets) && stylesheets.every((x) => typeof x === "string") ? stylesheets.join("\n") : stylesheets);
  add("settings", "Page settings", c.settings);
  each("translations", (locale) => `Translation ${locale}`, "Translations");
  eachNamed("sampleData", (name) => `Sample data ${name}`, "Sample data", (d) => d.data);
  add("dataSchema", "Data schema", c.dataSchema);
  add("contentFields", "Content fields", c.contentFields);
  add("contentValues", "Content values", c.contentValues);
  for (const [key, value] of Object.entries(c)) if (!shownKeys.has(key)) add(key, key, value);
  return files;
}

const shownKeys = new Set(["templateHtml", "composition", "partials", "helpers", "scripts", "header", "footer", "stylesheets", "settings", "translations", "sampleData", "dataSchema", "contentFields", "contentValues"]);

/** One line of a file's diff with its numbers in the version and the draft, or a run of unchanged lines left out. */
export type DiffLine =
  | { kind: "same"; text: string; before: number; after: number }
  | { kind: "removed"; text: string; before: number }
  | { kind: "added"; text: string; after: number }
  | { kind: "skipped"; count: number };

/** A file that differs: only in the version (removed), only in the draft (added), or in both (changed). */
export type FileChange = { id: string; label: string; status: "added" | "removed" | "changed"; lines: DiffLine[] };

export type ContentChanges = { same: true } | { same: false; files: FileChange[]; unchanged: string[] };

// why the final newline: jsdiff compares lines with their newline, so a last line without one differed from the same line followed by another.
const withNewline = (value: string) => (value === "" || value.endsWith("\n") ? value : `${value}\n`);
const splitLines = (value: string) => value.replace(/\n$/, "").split("\n");

/** The lines of a line diff, unchanged runs longer than 2 × `context` + 1 cut to `context` lines at each end. */
export function lineDiff(before: string, after: string, context = 3): DiffLine[] {
  const lines: DiffLine[] = [];
  let b = 1;
  let a = 1;
  for (const part of diffLines(withNewline(before), withNewline(after))) {
    for (const text of splitLines(part.value)) {
      if (part.added) lines.push({ kind: "added", text, after: a++ });
      else if (part.removed) lines.push({ kind: "removed", text, before: b++ });
      else lines.push({ kind: "same", text, before: b++, after: a++ });
    }
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.kind !== "same") {
      out.push(lines[i++]!);
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end]!.kind === "same") end++;
    const keepStart = i === 0 ? 0 : context;
    const keepEnd = end === lines.length ? 0 : context;
    if (end - i > keepStart + keepEnd + 1) {
      out.push(...lines.slice(i, i + keepStart), { kind: "skipped", count: end - i - keepStart - keepEnd }, ...lines.slice(end - keepEnd, end));
    } else out.push(...lines.slice(i, end));
    i = end;
  }
  return out;
}

/**
 * The content's changes from `version` to `draft`, file by file in the order of the editor's tabs
 * (the draft's files first, then those only the version has), each a line diff; `same` when they hold
 * the same content, whatever the key order. `unchanged` names the files equal in both.
 */
export function contentChanges(version: unknown, draft: unknown): ContentChanges {
  if (canonicalJson(version) === canonicalJson(draft)) return { same: true };
  const before = new Map(contentFiles(version).map((f) => [f.id, f]));
  const after = contentFiles(draft);
  const files: FileChange[] = [];
  const unchanged: string[] = [];
  for (const f of after) {
    const old = before.get(f.id);
    if (old?.text === f.text) unchanged.push(f.label);
    else files.push({ id: f.id, label: f.label, status: old ? "changed" : "added", lines: lineDiff(old?.text ?? "", f.text) });
  }
  const inDraft = new Set(after.map((f) => f.id));
  for (const f of before.values()) if (!inDraft.has(f.id)) files.push({ id: f.id, label: f.label, status: "removed", lines: lineDiff(f.text, "") });
  return { same: false, files, unchanged };
}
