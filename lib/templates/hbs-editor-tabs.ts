// The console editor's tabs over a Handlebars template's content, and back, and where a 400 of a
// save or preview points (a tab, a named file, a line). Pure: the browser imports it. The tabs it
// shares with component templates (settings, stylesheets, translations, data schema, content
// fields) are read and checked as editor-tabs.ts does for those.
import { fromTabs, json, toTabs, type Content as ComponentContent, type TranslationText } from "./editor-tabs";
import { parseJsonText } from "./json-text";

/** Handlebars content as docs/api.md (Handlebars templates) shapes it. */
export type HbsContent = {
  templateHtml: string;
  header?: string;
  footer?: string;
  helpers?: string;
  partials?: Record<string, string>;
  scripts?: { name: string; source: string }[];
  stylesheets?: string[];
  settings?: Record<string, unknown>;
  translations?: Record<string, unknown>;
  sampleData?: { name: string; data: Record<string, unknown> }[];
  dataSchema?: Record<string, unknown>;
  contentFields?: unknown[];
  contentValues?: Record<string, string>;
};

/** One named file of a list tab (a partial, a script, a sample data set) as the editor holds it. */
export type NamedText = { name: string; text: string };

export type HbsTabs = {
  templateHtml: string;
  header: string;
  footer: string;
  helpers: string;
  partials: NamedText[];
  scripts: NamedText[];
  /** Sample data sets: their JSON text. */
  sampleData: NamedText[];
  settings: string;
  stylesheets: string[];
  translations: TranslationText[];
  dataSchema: string;
  contentFields: string;
  contentValues: Record<string, string>;
};

export type HbsTabId = "templateHtml" | "partials" | "helpers" | "scripts" | "header" | "footer" | "stylesheets" | "settings" | "sampleData" | "translations" | "dataSchema" | "contentFields" | "content";

/** Component-shaped view of the shared fields, so editor-tabs.ts reads and checks them once for both kinds. */
const shared = (c: HbsContent): ComponentContent => ({
  composition: { root: null },
  settings: c.settings,
  translations: c.translations,
  dataSchema: c.dataSchema,
  contentFields: c.contentFields,
  contentValues: c.contentValues,
});

export function toHbsTabs(c: HbsContent): HbsTabs {
  const s = toTabs(shared(c));
  return {
    templateHtml: c.templateHtml ?? "",
    header: c.header ?? "",
    footer: c.footer ?? "",
    helpers: c.helpers ?? "",
    partials: Object.entries(c.partials ?? {}).map(([name, text]) => ({ name, text })),
    scripts: (c.scripts ?? []).map((x) => ({ name: x.name, text: x.source })),
    sampleData: (c.sampleData ?? []).map((x) => ({ name: x.name, text: json(x.data) })),
    settings: s.settings,
    stylesheets: [...(c.stylesheets ?? [])],
    translations: s.translations,
    dataSchema: s.dataSchema,
    contentFields: s.contentFields,
    contentValues: s.contentValues,
  };
}

export type HbsBuilt = { ok: true; content: HbsContent } | { ok: false; tab: HbsTabId; file?: string; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The content to save or preview, or the first tab whose text cannot be part of it. */
export function fromHbsTabs(tabs: HbsTabs): HbsBuilt {
  const s = fromTabs({ composition: '{"root":null}', header: "", footer: "", stylesheets: [], settings: tabs.settings, translations: tabs.translations, dataSchema: tabs.dataSchema, contentFields: tabs.contentFields, contentValues: tabs.contentValues }, { composition: {} });
  if (!s.ok) return { ok: false, tab: s.tab === "composition" ? "settings" : s.tab, file: s.locale, message: s.message };
  const sampleData: HbsContent["sampleData"] = [];
  for (const d of tabs.sampleData) {
    const parsed = parseJsonText(d.text);
    if (!parsed.ok) return { ok: false, tab: "sampleData", file: d.name, message: `Sample data ${d.name} is not valid JSON: ${parsed.message}` };
    const data = parsed.value;
    if (!isObject(data)) return { ok: false, tab: "sampleData", file: d.name, message: `Sample data ${d.name} must be a JSON object` };
    sampleData.push({ name: d.name, data });
  }
  const { composition: _c, ...rest } = s.content;
  const content: HbsContent = { templateHtml: tabs.templateHtml, ...rest };
  if (tabs.header !== "") content.header = tabs.header;
  if (tabs.footer !== "") content.footer = tabs.footer;
  if (tabs.helpers !== "") content.helpers = tabs.helpers;
  if (tabs.partials.length) content.partials = Object.fromEntries(tabs.partials.map((p) => [p.name, p.text]));
  if (tabs.scripts.length) content.scripts = tabs.scripts.map((x) => ({ name: x.name, source: x.text }));
  if (tabs.stylesheets.length) content.stylesheets = [...tabs.stylesheets];
  if (sampleData.length) content.sampleData = sampleData;
  return { ok: true, content };
}

/** Where a refusal points: the tab, the named file in it (a partial, script, sample data set or locale), the line. */
export type HbsLocation = { tab: HbsTabId | "data"; file?: string; line?: number };

/**
 * Where a 400's `details[].path` and message point. A preview's or publish's sandbox errors name
 * the content field of the file (`templateHtml`, `header`, `partials.invoice-row`, `helpers`,
 * `scripts.0`) with the line in the message ("Parse error on line 2", "(line 2)"); an exception
 * thrown in helpers.js or a script while another file runs says so at the end ("(helpers.js line
 * 2)", "(script totals line 3)"), and that file is where to look. A save's paths are the same
 * fields under `content.` ("content.partials.row", "content.scripts.0.source").
 */
export function locateHbsProblem(path: string | undefined, message: string, tabs?: Pick<HbsTabs, "scripts">): HbsLocation | undefined {
  if (!path) return undefined;
  const thrownIn = /\((helpers\.js|script (.+?)) line (\d+)\)\s*$/.exec(message);
  if (thrownIn) return thrownIn[2] !== undefined ? { tab: "scripts", file: thrownIn[2], line: Number(thrownIn[3]) } : { tab: "helpers", line: Number(thrownIn[3]) };
  const lineOf = /(?:Parse error on line|\(line) (\d+)/.exec(message);
  const line = lineOf ? Number(lineOf[1]) : undefined;
  const at = (loc: HbsLocation): HbsLocation => (line === undefined ? loc : { ...loc, line });
  if (path === "data" || path.startsWith("data.")) return { tab: "data" };
  const p = path.replace(/^content\./, "");
  const [head, second] = p.split(".");
  switch (head) {
    case "templateHtml":
    case "header":
    case "footer":
      return at({ tab: head });
    case "settings":
    case "stylesheets":
    case "dataSchema":
    case "contentFields":
    case "sampleData":
      return { tab: head };
    case "helpers":
      return at({ tab: "helpers" });
    case "partials":
      // why not `second`: a partial's name may hold dots (row.item).
      return at(p === "partials" ? { tab: "partials" } : { tab: "partials", file: p.slice("partials.".length) });
    case "scripts": {
      const file = second === undefined ? undefined : tabs?.scripts[Number(second)]?.name;
      return at(file === undefined ? { tab: "scripts" } : { tab: "scripts", file });
    }
    case "translations":
      return { tab: "translations", file: second };
    case "contentValues":
      return { tab: "content" };
    default:
      return undefined;
  }
}

/** The tabs that hold more than content values: what only template:write may change. */
export type HbsFileTabId = Exclude<HbsTabId, "content">;

/** The tabs whose files differ between `before` and `after`, content values aside. */
export function changedHbsTabs(before: HbsTabs, after: HbsTabs): HbsFileTabId[] {
  return (Object.keys(after) as (keyof HbsTabs)[]).filter((k): k is HbsFileTabId => k !== "contentValues" && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

/** `tabs` with the files of `ids` back as in `saved`; content values and the other tabs stay. */
export function revertHbsTabs(tabs: HbsTabs, saved: HbsTabs, ids: readonly HbsFileTabId[]): HbsTabs {
  const out = { ...tabs } as Record<keyof HbsTabs, unknown>;
  for (const k of ids) out[k] = saved[k];
  return out as HbsTabs;
}

/** A name for a new file of a list tab: `base`, else `base-2`, `base-3`… not yet taken. */
export function freeName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

/** Why `name` cannot name a partial or script (docs/api.md: Handlebars templates), or undefined. */
export function hbsNameProblem(kind: "partials" | "scripts" | "sampleData", name: string, taken: readonly string[]): string | undefined {
  if (kind === "partials") {
    if (!/^[A-Za-z0-9_][A-Za-z0-9_\-./]{0,254}$/.test(name)) return "A partial's name has up to 255 letters, digits, _ - . or /, starting with a letter, digit or _";
  } else if (!/^[A-Za-z0-9][A-Za-z0-9 _\-.]{0,79}$/.test(name)) {
    return `A ${kind === "scripts" ? "script" : "sample data set"}'s name has 1 to 80 letters, digits, spaces, _ - or ., starting with a letter or digit`;
  }
  if (taken.includes(name)) return `${name} is taken`;
  return undefined;
}

/** What a new Handlebars template starts with, so its preview shows something at once. */
export function hbsStarter(name: string, settings: Record<string, unknown>): HbsContent {
  return {
    templateHtml: [
      "<html>",
      "<body style=\"font-family: 'DejaVu Sans', sans-serif; font-size: 14px\">",
      "  <h1>{{title}}</h1>",
      "  <table style=\"width: 100%\">",
      "    {{#each lines}}{{> line}}{{/each}}",
      "  </table>",
      "  <p><strong>Total: {{money total}}</strong></p>",
      "</body>",
      "</html>",
    ].join("\n"),
    partials: { line: '<tr><td>{{description}}</td><td style="text-align: right">{{money amount}}</td></tr>' },
    helpers: [
      "// Every function declared here is a helper: {{money total}}.",
      "function money(value, options) {",
      '  const currency = options.hash.currency || "EUR";',
      '  return currency + " " + Number(value).toFixed(2);',
      "}",
    ].join("\n"),
    scripts: [
      {
        name: "totals",
        source: [
          "// Runs before the template; console.log lines show in the Console pane.",
          "function beforeRender(data) {",
          "  data.total = (data.lines || []).reduce((sum, line) => sum + line.amount, 0);",
          '  console.log("lines:", (data.lines || []).length);',
          "}",
        ].join("\n"),
      },
    ],
    header: '<div style="font-size: 9px; width: 100%; text-align: center">{{title}}</div>',
    footer: '<div style="font-size: 9px; width: 100%; text-align: right; padding-right: 10mm">Page {{pageNumber}} of {{totalPages}}</div>',
    settings,
    sampleData: [{ name: "example", data: { title: name, lines: [{ description: "Design", amount: 800 }, { description: "Hosting", amount: 45.5 }] } }],
  };
}

/** One line a Handlebars preview's helpers or scripts logged (docs/api.md: the `x-folio-console` header). */
export type ConsoleEntry = { step: string; level: string; message: string };

/** The console output a preview answered (base64 of UTF-8 JSON), or undefined when it carries none (component templates). */
export function consoleOf(headers: Headers): { entries: ConsoleEntry[]; omitted: number } | undefined {
  const header = headers.get("x-folio-console");
  if (header === null) return undefined;
  try {
    const bytes = Uint8Array.from(atob(header), (c) => c.charCodeAt(0));
    const entries: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return { entries: Array.isArray(entries) ? (entries as ConsoleEntry[]) : [], omitted: Number(headers.get("x-folio-console-omitted") ?? "0") || 0 };
  } catch {
    return undefined;
  }
}
