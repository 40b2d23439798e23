/**
 * What every template kind's content may carry besides its own source (issue 25): a JSON Schema of
 * its data (`dataSchema`), content fields (`contentFields`: text, multi-line text and images with
 * labels and defaults) and their values (`contentValues`, what content editors change). Each kind
 * spreads `templateContentExtras` into its content object and refines it with
 * `checkContentExtras`; renders add the fields' values to the data as `content` (withContent).
 * Pure: the console imports it.
 */
import { z } from "zod";
import { invalidValue } from "../errors";
import { canonicalJson } from "./content-diff";
import { DataSchema } from "./data-schema";
import { localizedData } from "./translations";

export const CONTENT_LIMITS = { fields: 50, nameChars: 64, labelChars: 200, textChars: 1000, multilineChars: 100_000, assetIdChars: 128 } as const;

export const contentFieldTypes = ["text", "multilineText", "image"] as const;
export type ContentFieldType = (typeof contentFieldTypes)[number];

/** A field's name, read as content.<name>: a letter, then letters, digits and _. */
export const ContentFieldName = z
  .string()
  .min(1)
  .max(CONTENT_LIMITS.nameChars)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "must be a letter followed by letters, digits and _");

export const ContentField = z
  .strictObject({
    name: ContentFieldName,
    type: z.enum(contentFieldTypes),
    label: z.string().trim().min(1).max(CONTENT_LIMITS.labelChars),
    /** The value until a content editor sets one: text, or an image's asset id. */
    default: z.string().max(CONTENT_LIMITS.multilineChars).optional(),
  })
  .meta({
    description:
      "A content field: name (read as content.<name>), type (text, multilineText or image: an asset id of the workspace), label shown in the console's content form, and default (the value until one is set in contentValues).",
  });
export type ContentField = z.infer<typeof ContentField>;

/** A field's value: text, or an image field's asset id. */
export const ContentValue = z.string().max(CONTENT_LIMITS.multilineChars);

export const templateContentExtras = {
  /** A JSON Schema the data of every render, preview and report is checked against first. */
  dataSchema: DataSchema.optional(),
  contentFields: z.array(ContentField).max(CONTENT_LIMITS.fields).optional(),
  /** Values of the declared fields by name; a field without one shows its default. */
  contentValues: z.record(ContentFieldName, ContentValue).optional(),
};

export type ContentExtras = {
  dataSchema?: Record<string, unknown>;
  contentFields?: ContentField[];
  contentValues?: Record<string, string>;
};

/** The keys a content editor (template:content without template:write) may change. */
export const CONTENT_ONLY_KEYS = ["contentValues"] as const;

const maxChars = (type: ContentFieldType) =>
  type === "text" ? CONTENT_LIMITS.textChars : type === "multilineText" ? CONTENT_LIMITS.multilineChars : CONTENT_LIMITS.assetIdChars;

/** Checks one value against its field's type; undefined when it fits. */
function valueProblem(field: ContentField, value: string): string | undefined {
  if (value.length > maxChars(field.type)) return `is longer than ${maxChars(field.type).toLocaleString("en-US")} characters (the limit of a ${field.type} field)`;
  if (field.type === "text" && /[\r\n]/.test(value)) return "is a single-line text field; use type multilineText for line breaks";
  if (field.type === "image" && value !== "" && !/^[A-Za-z0-9_-]+$/.test(value)) return "must be an image asset id such as ast_…";
  return undefined;
}

/**
 * The rules zod's shape cannot say: field names are unique, defaults and values fit their field's
 * type, and every value names a declared field.
 */
export function checkContentExtras(c: ContentExtras, ctx: z.RefinementCtx): void {
  const fields = new Map<string, ContentField>();
  (c.contentFields ?? []).forEach((f, i) => {
    if (fields.has(f.name)) ctx.addIssue({ code: "custom", path: ["contentFields", i, "name"], message: `duplicates content field ${f.name}` });
    fields.set(f.name, f);
    const problem = f.default === undefined ? undefined : valueProblem(f, f.default);
    if (problem) ctx.addIssue({ code: "custom", path: ["contentFields", i, "default"], message: problem });
  });
  for (const [name, value] of Object.entries(c.contentValues ?? {})) {
    const field = fields.get(name);
    if (!field) {
      ctx.addIssue({ code: "custom", path: ["contentValues", name], message: `names no field of contentFields` });
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) ctx.addIssue({ code: "custom", path: ["contentValues", name], message: problem });
  }
}

/**
 * The fields' values by name, as the document reads them under `content`: the value set, else
 * the default, else "" for text; an image field with neither is absent (a binding to it answers
 * 400 unless it has a fallback or a visibleWhen).
 */
export function contentOf(c: ContentExtras, imageAddress?: (assetId: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of c.contentFields ?? []) {
    const value = c.contentValues?.[f.name] ?? f.default ?? "";
    if (f.type !== "image") out[f.name] = value;
    else if (value !== "") out[f.name] = imageAddress ? imageAddress(value) : value;
  }
  return out;
}

/**
 * The data a template renders with, with its content fields as `content`. Only a template that
 * declares fields adds the key, and then its values win over a `content` key of the caller's data
 * (docs/api.md, Content fields): what a content editor published is what the document shows.
 */
export function withContent(c: ContentExtras, data: Record<string, unknown>, imageAddress?: (assetId: string) => string): Record<string, unknown> {
  if (!c.contentFields?.length) return data;
  return { ...data, content: contentOf(c, imageAddress) };
}

/** The asset ids the content fields show (values and defaults of image fields), each with where it is named. */
export function contentImages(c: ContentExtras, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  (c.contentFields ?? []).forEach((f, i) => {
    if (f.type !== "image") return;
    const value = c.contentValues?.[f.name];
    if (value !== undefined) {
      if (value !== "" && !out.has(value)) out.set(value, `${prefix}contentValues.${f.name}`);
    } else if (f.default && !out.has(f.default)) out.set(f.default, `${prefix}contentFields.${i}.default`);
  });
  return out;
}

/** Content without its values: what must stay equal for a change to be "content only". */
function withoutValues(content: unknown): unknown {
  if (content === null || typeof content !== "object" || Array.isArray(content)) return content;
  const rest: Record<string, unknown> = { ...(content as Record<string, unknown>) };
  for (const k of CONTENT_ONLY_KEYS) delete rest[k];
  return rest;
}

/** Whether `after` differs from `before` in content field values only (or not at all). */
export function changesValuesOnly(before: unknown, after: unknown): boolean {
  return canonicalJson(withoutValues(before)) === canonicalJson(withoutValues(after));
}

/**
 * The top-level fields other than content values that `after` changes, adds or removes (by
 * canonical JSON, so key order does not matter), in `after`'s order then `before`'s: what a
 * content editor's refused save names.
 */
export function changedBeyondValues(before: unknown, after: unknown): string[] {
  const fieldsOf = (c: unknown) => (c !== null && typeof c === "object" && !Array.isArray(c) ? (withoutValues(c) as Record<string, unknown>) : {});
  const b = fieldsOf(before);
  const a = fieldsOf(after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => canonicalJson(a[k] ?? null) !== canonicalJson(b[k] ?? null));
}

/** Whether the two contents hold the same values (by canonical JSON, so key order does not matter). */
export function sameValues(before: unknown, after: unknown): boolean {
  const values = (c: unknown) => (c && typeof c === "object" ? ((c as Record<string, unknown>).contentValues ?? {}) : {});
  return canonicalJson(values(before)) === canonicalJson(values(after));
}

/**
 * The data a template of any kind renders with (issue 25): the caller's data, which the caller
 * checked against the template's data schema first (lib/templates/data-check.ts, in the sandbox),
 * with its content fields added as `content` and its translation file for `lang` as
 * `localization` (docs/api.md, Content fields). `imageAddress` turns an image field's asset id
 * into what the kind's page loads (a Handlebars template's `<img src>`); without it the id stays.
 */
export function templateData(
  content: ContentExtras & { translations?: Record<string, Record<string, unknown>> },
  data: Record<string, unknown>,
  lang: string,
  imageAddress?: (assetId: string) => string,
): Record<string, unknown> {
  return localizedData(content.translations, withContent(content, data, imageAddress), lang);
}

/**
 * Refuses a name `__proto__` among the content's named files (`fields`: partials, translations),
 * 400 naming it. why before zod: its records leave that key out without a word (set, it would change
 * the object's prototype), so the author's partial or translation vanished at save while the
 * template still used it ("The partial __proto__ could not be found" at every render).
 */
export function refuseProtoNames(content: unknown, fields: readonly string[]): void {
  for (const field of fields) {
    const named = typeof content === "object" && content !== null ? (content as Record<string, unknown>)[field] : undefined;
    if (typeof named === "object" && named !== null && Object.hasOwn(named, "__proto__")) {
      throw invalidValue(`content.${field}.__proto__`, "is a name JavaScript keeps for itself; choose another");
    }
  }
}
