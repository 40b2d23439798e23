// The console editor's tabs over a component template's content, and back. Pure: the browser imports it.
// spec: Component template: the console shows composition.json holding only root, the page
// header and footer, and a list of the folder's stylesheets to tick; components (and anything
// else of the composition) are kept as they are. Translation files are one JSON text per locale.
import { parseJsonText } from "./json-text";

export type Content = {
  composition: Record<string, unknown> & { root?: unknown; header?: string; footer?: string; stylesheets?: string[] };
  settings?: Record<string, unknown>;
  translations?: Record<string, unknown>;
  /** Issue 25: the data's JSON Schema, content fields and their values (content-extras.ts). */
  dataSchema?: Record<string, unknown>;
  contentFields?: unknown[];
  contentValues?: Record<string, string>;
};

/** One translation file as the editor holds it: its locale and its JSON text. */
export type TranslationText = { locale: string; text: string };

/** What each tab edits: the code tabs as text, the ticked stylesheets in order, the translation files. */
export type Tabs = {
  composition: string;
  header: string;
  footer: string;
  settings: string;
  stylesheets: string[];
  translations: TranslationText[];
  /** The data schema's JSON text; "" for none. */
  dataSchema: string;
  /** The content fields' JSON text (an array; "[]" for none). */
  contentFields: string;
  /** The values set in the content form, by field name (a field without one shows its default). */
  contentValues: Record<string, string>;
};
/** The tabs shown in a code editor. */
export type CodeTab = "composition" | "header" | "footer" | "settings" | "dataSchema" | "contentFields";
/** Where a problem can be shown. */
export type TabId = CodeTab | "stylesheets" | "translations" | "content";

export const json = (v: unknown) => JSON.stringify(v, null, 2);

export function toTabs(content: Content): Tabs {
  const c = content.composition ?? {};
  return {
    composition: json({ root: c.root }),
    header: c.header ?? "",
    footer: c.footer ?? "",
    settings: json(content.settings ?? {}),
    stylesheets: [...(c.stylesheets ?? [])],
    translations: Object.entries(content.translations ?? {}).map(([locale, file]) => ({ locale, text: json(file) })),
    dataSchema: content.dataSchema ? json(content.dataSchema) : "",
    contentFields: json(content.contentFields ?? []),
    contentValues: { ...(content.contentValues ?? {}) },
  };
}

/** Whether two tab sets hold the same edits. */
export const sameTabs = (a: Tabs, b: Tabs) => JSON.stringify(a) === JSON.stringify(b);

export type Built = { ok: true; content: Content } | { ok: false; tab: TabId; message: string; locale?: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The content to save or preview: the edited root, header, footer, stylesheets, settings and
 * translation files merged into `stored` (the draft as last read), so its reusable components stay
 * as they are. An empty header, footer, stylesheet list or set of translations is left out; so are
 * empty settings the stored draft did not have.
 */
export function fromTabs(tabs: Tabs, stored: Content): Built {
  const compositionJson = parseJsonText(tabs.composition);
  if (!compositionJson.ok) return { ok: false, tab: "composition", message: `composition.json is not valid JSON: ${compositionJson.message}` };
  const parsed = compositionJson.value;
  if (!isObject(parsed) || !("root" in parsed)) {
    return { ok: false, tab: "composition", message: "composition.json must be an object with root" };
  }
  const extra = Object.keys(parsed).filter((k) => k !== "root");
  if (extra.length) return { ok: false, tab: "composition", message: `composition.json holds only root; ${extra.join(", ")} is not shown here` };
  const root = parsed.root;
  const settingsJson = parseJsonText(tabs.settings);
  if (!settingsJson.ok) return { ok: false, tab: "settings", message: `Page settings are not valid JSON: ${settingsJson.message}` };
  const settings = settingsJson.value;
  const translations: Record<string, unknown> = {};
  for (const t of tabs.translations) {
    const file = parseJsonText(t.text);
    if (!file.ok) return { ok: false, tab: "translations", locale: t.locale, message: `Translation ${t.locale} is not valid JSON: ${file.message}` };
    if (!isObject(file.value)) return { ok: false, tab: "translations", locale: t.locale, message: `Translation ${t.locale} must be a JSON object` };
    translations[t.locale] = file.value;
  }
  let dataSchema: unknown;
  if (tabs.dataSchema.trim() !== "") {
    const schema = parseJsonText(tabs.dataSchema);
    if (!schema.ok) return { ok: false, tab: "dataSchema", message: `The data schema is not valid JSON: ${schema.message}` };
    dataSchema = schema.value;
    if (!isObject(dataSchema)) return { ok: false, tab: "dataSchema", message: "The data schema must be a JSON object (a JSON Schema)" };
  }
  const fieldsJson = parseJsonText(tabs.contentFields);
  if (!fieldsJson.ok) return { ok: false, tab: "contentFields", message: `Content fields are not valid JSON: ${fieldsJson.message}` };
  const fields = fieldsJson.value;
  if (!Array.isArray(fields)) return { ok: false, tab: "contentFields", message: "Content fields must be a JSON array of fields" };
  const { header: _h, footer: _f, stylesheets: _s, ...kept } = stored.composition ?? {};
  const composition: Content["composition"] = { ...kept, root };
  if (tabs.stylesheets.length) composition.stylesheets = [...tabs.stylesheets];
  if (tabs.header !== "") composition.header = tabs.header;
  if (tabs.footer !== "") composition.footer = tabs.footer;
  const content: Content = { composition };
  const emptySettings = isObject(settings) && Object.keys(settings).length === 0;
  if (!(emptySettings && stored.settings === undefined)) content.settings = settings as Record<string, unknown>;
  if (tabs.translations.length) content.translations = translations;
  if (dataSchema !== undefined) content.dataSchema = dataSchema as Record<string, unknown>;
  if (fields.length) content.contentFields = fields;
  // A removed field's value goes with it.
  const names = new Set(fields.map((f) => (isObject(f) ? f.name : undefined)));
  const values = Object.entries(tabs.contentValues).filter(([name]) => names.has(name));
  if (values.length) content.contentValues = Object.fromEntries(values);
  return { ok: true, content };
}

/** The declared fields the content form shows: those of the tab's JSON that are well formed; none while it does not parse. */
export function formFields(contentFields: string): { name: string; type: "text" | "multilineText" | "image"; label: string; default?: string }[] {
  try {
    const parsed: unknown = JSON.parse(contentFields);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (f): f is { name: string; type: "text" | "multilineText" | "image"; label: string; default?: string } =>
        isObject(f) && typeof f.name === "string" && typeof f.label === "string" && ["text", "multilineText", "image"].includes(f.type as string) && (f.default === undefined || typeof f.default === "string"),
    );
  } catch {
    return [];
  }
}

/** Sample data: a JSON object, or why it is not one. */
export function parseData(text: string): { ok: true; data: Record<string, unknown> } | { ok: false; message: string } {
  const v = parseJsonText(text);
  if (!v.ok) return { ok: false, message: `Sample data is not valid JSON: ${v.message}` };
  if (!isObject(v.value)) return { ok: false, message: "Sample data must be a JSON object" };
  return { ok: true, data: v.value };
}

/**
 * Which tab a server error's details[].path belongs to: a save's paths start with `content.`
 * ("content.composition.root.children.0"), a preview's file problems with `composition.`
 * ("composition.stylesheets.1", "composition.root.assetId").
 */
export function tabOfPath(path: string | undefined): TabId | "data" | undefined {
  if (!path) return undefined;
  const p = path.replace(/^content\./, "");
  if (p.startsWith("composition.header")) return "header";
  if (p.startsWith("composition.footer")) return "footer";
  if (p.startsWith("composition.stylesheets")) return "stylesheets";
  if (p.startsWith("composition.") || p === "composition") return "composition";
  if (p.startsWith("settings")) return "settings";
  if (p.startsWith("translations")) return "translations";
  if (p.startsWith("dataSchema")) return "dataSchema";
  if (p.startsWith("contentFields")) return "contentFields";
  if (p.startsWith("contentValues")) return "content";
  if (path.startsWith("data")) return "data";
  // A binding's path names data ("customer.name"): the sample data lacks it.
  return "data";
}

/** A path as the problem list shows it, under its tab: `root.children.0.type`, `stylesheets.1`. */
export const shortPath = (path: string | undefined) => (path ?? "").replace(/^content\./, "").replace(/^composition\./, "");

/** Whether `locale` can name a translation file: a BCP 47 tag of 2 to 80 characters (as the save checks). */
export function translationLocaleProblem(locale: string, taken: readonly string[]): string | undefined {
  if (locale.length < 2 || locale.length > 80) return "A locale has 2 to 80 characters, such as de or de-CH";
  try {
    if (Intl.getCanonicalLocales(locale).length !== 1) return `${locale} is not a language tag such as de or de-CH`;
  } catch {
    return `${locale} is not a language tag such as de or de-CH`;
  }
  if (taken.some((t) => t.toLowerCase() === locale.toLowerCase())) return `There is a translation for ${locale} already`;
  if (taken.length >= 20) return "A template has at most 20 translation files";
  return undefined;
}
