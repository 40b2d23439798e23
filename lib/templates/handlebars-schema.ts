/**
 * The content of a Handlebars template (decisions.md: Templates; spec: Limits > Templates and
 * workspace files), in one zod object so that keys both template kinds share are added in one
 * place. Size and count limits answer 400 LIMIT_EXCEEDED naming the field, other faults
 * BAD_REQUEST (parseHandlebarsContent); nothing here runs the sources: the sandbox does, at render.
 */
import { z, ZodError } from "zod";
import { AppError, fromZodError } from "../errors";
import { JsonObject, PageSettings } from "../documents/page-settings";
import { TranslationLocale } from "./schema";
import { checkContentExtras, refuseProtoNames, templateContentExtras } from "./content-extras";

export const HANDLEBARS_LIMITS = {
  templateHtmlChars: 2_000_000,
  headerFooterChars: 100_000,
  helpersChars: 500_000,
  partials: 200,
  partialChars: 1_000_000,
  partialNameChars: 255,
  scripts: 10,
  scriptChars: 100_000,
  scriptNameChars: 80,
  stylesheets: 20,
  translations: 20,
  sampleData: 20,
  sampleDataNameChars: 80,
} as const;

const L = HANDLEBARS_LIMITS;

/** A limit's issue: parseHandlebarsContent answers LIMIT_EXCEEDED for these rather than BAD_REQUEST. */
const LIMIT = { limit: true };

/** At most `max` characters; over it, an issue marked as a limit (the field's own limit is named). */
export const source = (max: number, what: string) =>
  z.string().check((c) => {
    if (c.value.length > max) c.issues.push({ code: "custom", input: c.value, params: LIMIT, message: `is longer than ${max.toLocaleString("en-US")} characters (the limit of ${what})` });
  });

const atMost = (max: number, what: string) => (c: { value: unknown; issues: unknown[] }, n: number) => {
  if (n > max) (c.issues as z.core.$ZodRawIssue[]).push({ code: "custom", input: c.value, params: LIMIT, message: `has ${n} ${what}; at most ${max}` });
};

/**
 * A partial's name as `{{> name}}` calls it: letters, digits, `_`, `-`, `.` and `/` (Handlebars
 * reads `a/b` as one path), starting with a letter, digit or `_`.
 */
export const PartialName = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/, "must be letters, digits, _, -, . and /, starting with a letter, digit or _")
  .check((c) => {
    if (c.value.length > L.partialNameChars) c.issues.push({ code: "custom", input: c.value, params: LIMIT, message: `is longer than ${L.partialNameChars} characters (the limit of partial names)` });
  });

export const Partials = z.record(PartialName, source(L.partialChars, "a partial")).check((c) => atMost(L.partials, "partials")(c, Object.keys(c.value).length));

/** A script's name: how errors and console lines name it (`script totals`); 1 to 80 characters, unique in the template. */
export const ScriptName = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, "must be letters, digits, space, _, - and ., starting with a letter or digit")
  .check((c) => {
    if (c.value.length > L.scriptNameChars) c.issues.push({ code: "custom", input: c.value, params: LIMIT, message: `is longer than ${L.scriptNameChars} characters (the limit of script names)` });
  });

export const Scripts = z
  .array(z.strictObject({ name: ScriptName, source: source(L.scriptChars, "a script") }))
  .check((c) => {
    atMost(L.scripts, "scripts")(c, c.value.length);
    const seen = new Set<string>();
    c.value.forEach((s, i) => {
      if (seen.has(s.name)) c.issues.push({ code: "custom", input: s.name, path: [i, "name"], message: `another script is named ${s.name}` });
      seen.add(s.name);
    });
  });

const SampleDataName = z
  .string()
  .min(1)
  .check((c) => {
    if (c.value.length > L.sampleDataNameChars) c.issues.push({ code: "custom", input: c.value, params: LIMIT, message: `is longer than ${L.sampleDataNameChars} characters (the limit of sample data set names)` });
  });

export const SampleData = z.array(z.strictObject({ name: SampleDataName, data: JsonObject })).check((c) => atMost(L.sampleData, "sample data sets")(c, c.value.length));

/** Translation files as component templates have them, the count a limit like the others here. */
const Translations = z.record(TranslationLocale, JsonObject).check((c) => atMost(L.translations, "translation files")(c, Object.keys(c.value).length));

const Stylesheets = z.array(z.string().min(1).max(1000)).check((c) => atMost(L.stylesheets, "stylesheets")(c, c.value.length));

/** The fields of a Handlebars template's content (decisions.md: Templates), each optional but templateHtml. */
export const handlebarsContentShape = {
  templateHtml: source(L.templateHtmlChars, "template.html"),
  header: source(L.headerFooterChars, "the page header").optional(),
  footer: source(L.headerFooterChars, "the page footer").optional(),
  helpers: source(L.helpersChars, "helpers.js").optional(),
  partials: Partials.optional(),
  scripts: Scripts.optional(),
  stylesheets: Stylesheets.optional(),
  settings: PageSettings.optional(),
  translations: Translations.optional(),
  sampleData: SampleData.optional(),
  // Data schema and content fields, as component templates have them (docs/api.md).
  ...templateContentExtras,
};

export const HandlebarsContent = z.strictObject(handlebarsContentShape).superRefine(checkContentExtras).meta({
  description:
    "The content of a Handlebars template: template.html, its page header and footer, helpers.js, partials, beforeRender scripts, workspace stylesheets, page settings, translation files and sample data sets.",
  examples: [{ templateHtml: "<h1>{{title}}</h1>", footer: "Page {{pageNumber}} of {{totalPages}}", settings: { locale: "en-US" } }],
});
export type HandlebarsContent = z.infer<typeof HandlebarsContent>;

/**
 * Validates Handlebars content at save (and unsaved content of a preview); errors name the field
 * under `content`. Over a size or count limit: 400 LIMIT_EXCEEDED (spec: Limits), else BAD_REQUEST.
 */
export function parseHandlebarsContent(content: unknown): HandlebarsContent {
  refuseProtoNames(content, ["partials", "translations"]);
  return parseWithLimits(HandlebarsContent, content);
}

/**
 * Content checked by `schema`, its errors naming the field under `content`: 400 LIMIT_EXCEEDED for
 * a size or count limit (issues marked `limit`, or too_big), BAD_REQUEST otherwise.
 */
export function parseWithLimits<T extends z.ZodType>(schema: T, content: unknown): z.infer<T> {
  try {
    return schema.parse(content);
  } catch (e) {
    if (!(e instanceof ZodError)) throw e;
    const err = fromZodError(e, ["content"]);
    // why: a record key's own issue (a partial name too long) comes wrapped in invalid_key.
    const first = e.issues[0]?.code === "invalid_key" ? e.issues[0].issues[0] : e.issues[0];
    const overLimit = first?.code === "too_big" || (first?.code === "custom" && (first.params as { limit?: boolean } | undefined)?.limit === true);
    throw overLimit ? new AppError("LIMIT_EXCEEDED", err.message, { details: err.details }) : err;
  }
}
