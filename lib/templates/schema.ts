/**
 * The component template language (spec: Resources > Component template): one zod schema tree,
 * used to validate drafts at save, node documents at render, and exported as JSON Schema for the
 * console editor (componentTemplateJsonSchema). Limits checked here are the spec's "save" limits;
 * the "render" limits are the expansion's (expand.ts).
 */
import { z } from "zod";
import { named } from "../json-schema";
import { JsonObject, Locale, PageSettings } from "../documents/page-settings";
import { checkContentExtras, templateContentExtras } from "./content-extras";

export { definitions } from "../json-schema";

export const LIMITS = {
  componentsAtSave: 1000,
  depthAtSave: 50,
  reusableComponents: 100,
  childrenPerList: 1000,
  stylesheets: 20,
  headerFooterChars: 100_000,
  literalChars: 100_000,
  mixedParts: 100,
  pathSegments: 20,
  segmentChars: 128,
  columns: 30,
  styleProperties: 200,
  styleValueChars: 2000,
  classNameChars: 1000,
  translations: 20,
  translationLocaleChars: 80,
} as const;

const REFUSED_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

/** A reusable component key or table column id: letters, digits, _ and -, starting with a letter or digit. */
export const Identifier = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "must be letters, digits, _ and -, starting with a letter or digit");

export const Path = named(z
  .array(
    z
      .string()
      .min(1)
      .max(LIMITS.segmentChars)
      .refine((s) => !REFUSED_SEGMENTS.has(s), "__proto__, constructor and prototype are refused as property names"),
  )
  .min(1)
  .max(LIMITS.pathSegments),
  "DataPath",
  "Where a value is in the data: property names from the scope's start, an array item by its index written as a string (\"0\"). 1 to 20 segments of up to 128 characters.",
  [["customer", "name"], ["lines"], ["lines", "0", "price"]],
);

export const Scope = named(
  z.enum(["current", "root"]),
  "Scope",
  "Where a path starts: current (the default) is the item or row being drawn inside a repeat or table, else the whole data; root is always the whole data.",
  ["root", "current"],
);

/** Where repeat, table and component read their data: only path and scope. */
export const DataSource = named(
  z.strictObject({ path: Path, scope: Scope.optional() }),
  "DataSource",
  "Where a repeat, table or component reads its data. For repeat and table a missing or null value is an empty list; anything else that is not an array answers 400.",
  [{ path: ["lines"] }, { path: ["customer", "address"], scope: "root" }],
);
export type DataSource = z.infer<typeof DataSource>;

function validTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const Digits = z.number().int().min(0).max(20);

export const Format = named(z
  .strictObject({
    type: z.enum(["number", "currency", "percent", "date"]),
    locale: Locale.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code such as EUR")
      .optional(),
    minimumFractionDigits: Digits.optional(),
    maximumFractionDigits: Digits.optional(),
    dateStyle: z.enum(["short", "medium", "long", "full"]).optional(),
    timeZone: z.string().min(1).max(64).refine(validTimeZone, "is not an IANA time zone name").optional(),
  })
  .superRefine((f, ctx) => {
    const only = (field: keyof typeof f, types: string[]) => {
      if (f[field] !== undefined && !types.includes(f.type))
        ctx.addIssue({ code: "custom", path: [field], message: `applies only to format type ${types.join(", ")}` });
    };
    only("currency", ["currency"]);
    only("minimumFractionDigits", ["number", "currency", "percent"]);
    only("maximumFractionDigits", ["number", "currency", "percent"]);
    only("dateStyle", ["date"]);
    only("timeZone", ["date"]);
    if (f.type === "currency" && f.currency === undefined) ctx.addIssue({ code: "custom", path: ["currency"], message: "is required for format type currency" });
    if (f.minimumFractionDigits !== undefined && f.maximumFractionDigits !== undefined && f.minimumFractionDigits > f.maximumFractionDigits)
      ctx.addIssue({ code: "custom", path: ["minimumFractionDigits"], message: "must not exceed maximumFractionDigits" });
  }),
  "Format",
  "How a bound value is shown. number, currency (needs currency, an ISO 4217 code) and percent take a JSON number; date takes an ISO date (YYYY-MM-DD), an ISO timestamp with a zone, or milliseconds since 1970. locale defaults to the render language; a date's timeZone (IANA name) to UTC.",
  [
    { type: "currency", currency: "EUR" },
    { type: "date", dateStyle: "long" },
    { type: "number", maximumFractionDigits: 2 },
    { type: "percent", locale: "de-CH" },
  ],
);
export type Format = z.infer<typeof Format>;

const Plain = named(
  z.union([z.string().max(LIMITS.literalChars), z.number().finite(), z.boolean()]),
  "Literal",
  "A value written in the template: a string of up to 100,000 characters, a number or a boolean, shown as written.",
  ["Invoice", 42, true],
);

export const Binding = named(
  z.strictObject({
    path: Path,
    scope: Scope.optional(),
    fallback: Plain.optional(),
    format: Format.optional(),
    prefix: z.string().max(1000).optional(),
    suffix: z.string().max(1000).optional(),
  }),
  "Binding",
  "A value read from the data at path (a string, number or boolean), formatted by format, with prefix and suffix around it. Without a value there, fallback is shown as written; without a fallback the request answers 400 naming the path.",
  [
    { path: ["customer", "name"] },
    { path: ["total"], format: { type: "currency", currency: "EUR" } },
    { path: ["dueDate"], format: { type: "date", dateStyle: "medium" }, prefix: "Due ", fallback: "on receipt" },
  ],
);
export type Binding = z.infer<typeof Binding>;

export const Mixed = named(
  z.strictObject({ parts: z.array(z.union([Plain, Binding])).min(1).max(LIMITS.mixedParts) }),
  "MixedText",
  "Text joined from literals and bindings, 1 to 100 parts.",
  [{ parts: ["Invoice ", { path: ["number"] }, " of ", { path: ["issuedAt"], format: { type: "date" } }] }],
);
export type Mixed = z.infer<typeof Mixed>;

/** A value: a literal string (up to 100,000 characters), number or boolean; a binding; mixed text. */
export const Value = named(
  z.union([Plain, Binding, Mixed]),
  "Value",
  "What a text or table cell shows: a literal, a binding ({path, ...}) or mixed text ({parts}).",
  ["Thank you for your order", { path: ["total"], format: { type: "currency", currency: "EUR" } }, { parts: ["Order ", { path: ["number"] }] }],
);
export type Value = z.infer<typeof Value>;

export const Condition = named(z.strictObject({
  path: Path,
  scope: Scope.optional(),
  operator: z.enum(["truthy", "falsy", "exists", "notExists", "equals", "notEquals"]),
  value: z.union([z.string().max(LIMITS.literalChars), z.number().finite(), z.boolean()]).optional(),
}).superRefine((c, ctx) => {
  if (c.value !== undefined && c.operator !== "equals" && c.operator !== "notEquals")
    ctx.addIssue({ code: "custom", path: ["value"], message: "applies only to the operators equals and notEquals" });
}),
  "Condition",
  "visibleWhen: the component is drawn only when the value at path passes the operator (truthy, falsy, exists, notExists; equals and notEquals compare with value, same type required). A missing value never fails, and a hidden component's own data is not read.",
  [{ path: ["paid"], operator: "truthy" }, { path: ["discount"], operator: "exists" }, { path: ["status"], operator: "equals", value: "overdue" }],
);
export type Condition = z.infer<typeof Condition>;

/**
 * CSS values that cannot reach outside the page or break out of their declaration: no `;`, braces,
 * angle brackets, backslash escapes or comments, and no resource-loading functions except data:
 * URLs. Quotes are allowed (font names need them): the style attribute is HTML-escaped.
 */
const unsafeCss = /[;{}<>\\]|\/\*|\*\/|@import|expression\s*\(|image-set\s*\(|(?:^|[^a-z-])src\s*\(|url\s*\(\s*(?!['"]?data:)/i;
/** A data: URL inside url(); its `;base64,` is part of the URL, not a declaration end. */
const dataUrl = /url\(\s*(['"]?)data:[^'"()\\<>{}\s]*\1\s*\)/gi;
const isSafeCss = (v: string) => !unsafeCss.test(v.replace(dataUrl, "url(data:)"));

export const StyleValue = z.union([
  z.number().finite(),
  z
    .string()
    .max(LIMITS.styleValueChars)
    .refine(isSafeCss, "must be a plain CSS value: no ;, braces, <, >, backslashes, comments, @import, or url() other than data:"),
]);

/** CSS properties in camelCase (vendor prefixes as WebkitX, or CSS custom properties --x). Static. */
export const Style = named(z
  .record(
    z.string().regex(/^(?:[a-zA-Z][a-zA-Z0-9]{0,63}|--[a-zA-Z0-9_-]{1,62})$/, "must be a CSS property name in camelCase"),
    StyleValue,
  )
  .refine((s) => Object.keys(s).length <= LIMITS.styleProperties, `at most ${LIMITS.styleProperties} properties`),
  "Style",
  "Static CSS in camelCase property names (WebkitX for vendor prefixes, --x for custom properties), up to 200. Numbers are pixels, except for unitless properties such as lineHeight, fontWeight, opacity. Strings are plain CSS values: no ;, braces, <, >, backslashes, comments, @import, or url() other than data: URLs.",
  [{ fontSize: 12, fontWeight: 600, color: "#111827" }, { marginTop: "8mm", textAlign: "right" }],
);
export type Style = z.infer<typeof Style>;

const common = {
  style: Style.optional(),
  className: z.string().max(LIMITS.classNameChars).optional(),
  visibleWhen: Condition.optional(),
};

// why: lazy, because the component types are defined before the union that contains them.
const Children = () => z.array(z.lazy(() => Component)).max(LIMITS.childrenPerList);

export const Column = named(
  z.strictObject({
    id: Identifier,
    header: z.string().max(1000),
    value: Value,
    width: z.number().finite().gt(0).max(2000).optional(),
    style: Style.optional(),
  }),
  "Column",
  "A table column: id (unique in the table: letters, digits, _ and -), header text, the value of each row's cell (bindings read the row), width in pixels, and a style for its cells.",
  [
    { id: "item", header: "Item", value: { path: ["description"] } },
    { id: "amount", header: "Amount", value: { path: ["amount"], format: { type: "currency", currency: "EUR" } }, width: 120, style: { textAlign: "right" } },
  ],
);
export type Column = z.infer<typeof Column>;

export type ComponentNode =
  | ({ type: "container"; children: ComponentNode[] } & CommonFields)
  | ({ type: "text"; text: Value } & CommonFields)
  | ({ type: "image"; assetId: string | Binding; width?: number; height?: number } & CommonFields)
  | ({ type: "repeat"; source: DataSource; children: ComponentNode[]; empty?: ComponentNode[] } & CommonFields)
  | ({
      type: "table";
      source: DataSource;
      columns: Column[];
      showHeader?: boolean;
      headerStyle?: Style;
      cellStyle?: Style;
      emptyText?: string;
    } & CommonFields)
  | ({ type: "component"; componentId: string; data?: DataSource } & CommonFields);
type CommonFields = { style?: Style; className?: string; visibleWhen?: Condition };

const hello = { type: "text", text: "Hello" } as const;

export const ContainerComponent = named(
  z.strictObject({ type: z.literal("container"), ...common, children: Children() }),
  "ContainerComponent",
  "A box (a div) holding other components in order, up to 1,000. style, className and visibleWhen apply to every component type.",
  [{ type: "container", style: { display: "flex", gap: 16 }, children: [hello] }],
);

export const TextComponent = named(
  z.strictObject({ type: z.literal("text"), ...common, text: Value }),
  "TextComponent",
  "A block of text: a literal, a binding or mixed text. Line breaks in the value are kept; data is always shown as text, never as markup.",
  [hello, { type: "text", text: { path: ["customer", "name"] }, style: { fontWeight: 700 } }],
);

export const ImageComponent = named(
  z.strictObject({
    type: z.literal("image"),
    ...common,
    assetId: z.union([z.string().min(1).max(128), Binding]),
    width: z.number().finite().gt(0).max(100_000).optional(),
    height: z.number().finite().gt(0).max(100_000).optional(),
  }),
  "ImageComponent",
  "An uploaded image (kind image or svg, ready) by its asset id, or a binding selecting one of the ids that image components of the template name literally (anything else answers 400 ASSET_INVALID); width and height in CSS pixels. Publishing copies the image into the version.",
  [{ type: "image", assetId: "ast_logo", width: 120 }, { type: "image", assetId: { path: ["logoId"] }, height: 40 }],
);

export const RepeatComponent = named(
  z.strictObject({ type: z.literal("repeat"), ...common, source: DataSource, children: Children(), empty: Children().optional() }),
  "RepeatComponent",
  "Draws children once per item of the array at source (up to 500 items); inside, bindings read the item. empty is drawn when the array is empty or missing.",
  [{ type: "repeat", source: { path: ["notes"] }, children: [{ type: "text", text: { path: ["text"] } }], empty: [{ type: "text", text: "No notes" }] }],
);

export const TableComponent = named(
  z
    .strictObject({
      type: z.literal("table"),
      ...common,
      source: DataSource,
      columns: z.array(Column).min(1).max(LIMITS.columns),
      showHeader: z.boolean().optional(),
      headerStyle: Style.optional(),
      cellStyle: Style.optional(),
      emptyText: z.string().max(10_000).optional(),
    })
    .superRefine((t, ctx) => {
      const seen = new Set<string>();
      t.columns.forEach((c, i) => {
        if (seen.has(c.id)) ctx.addIssue({ code: "custom", path: ["columns", i, "id"], message: `duplicates column id ${c.id}` });
        seen.add(c.id);
      });
    }),
  "TableComponent",
  "A table with one row per item of the array at source (up to 500) and 1 to 30 columns; the header row repeats on every page. emptyText fills one row when there are no items.",
  [
    {
      type: "table",
      source: { path: ["lines"] },
      columns: [
        { id: "item", header: "Item", value: { path: ["description"] } },
        { id: "amount", header: "Amount", value: { path: ["amount"], format: { type: "currency", currency: "EUR" } } },
      ],
      emptyText: "No lines",
    },
  ],
);

export const ComponentReference = named(
  z.strictObject({ type: z.literal("component"), ...common, componentId: z.string().min(1).max(128), data: DataSource.optional() }),
  "ComponentReference",
  "Draws the reusable component with key componentId from composition.components; with data, that component's bindings read the value at data's path.",
  [{ type: "component", componentId: "address", data: { path: ["customer", "address"] } }],
);

export const Component: z.ZodType<ComponentNode> = named(
  z.discriminatedUnion("type", [ContainerComponent, TextComponent, ImageComponent, RepeatComponent, TableComponent, ComponentReference]),
  "Component",
  "One component; type chooses which: container, text, image, repeat, table or component (a reusable one).",
  [{ type: "container", children: [{ type: "text", text: "Invoice" }, { type: "text", text: { path: ["customer", "name"] } }] }],
) as z.ZodType<ComponentNode>;

export const ReusableComponent = named(
  z.strictObject({ name: z.string().min(1).max(200), root: Component }),
  "ReusableComponent",
  "A component defined once under a key of composition.components (up to 100) and drawn wherever a component of type component names that key.",
  [{ name: "Address", root: { type: "container", children: [{ type: "text", text: { path: ["street"] } }, { type: "text", text: { path: ["city"] } }] } }],
);
export type ReusableComponent = z.infer<typeof ReusableComponent>;

const Components = z
  .record(Identifier, ReusableComponent)
  .refine((c) => Object.keys(c).length <= LIMITS.reusableComponents, `at most ${LIMITS.reusableComponents} reusable components`);

/**
 * Counts components and nesting (depth 1 is the root) of one tree, adding an issue at the first
 * place over the save limits. `budget.count` is shared across the trees of one composition.
 */
function checkTree(root: ComponentNode, at: PropertyKey[], budget: { count: number; reported: boolean }, ctx: z.RefinementCtx) {
  const stack: { node: ComponentNode; depth: number; path: PropertyKey[] }[] = [{ node: root, depth: 1, path: at }];
  while (stack.length) {
    const { node, depth, path } = stack.pop()!;
    budget.count++;
    if (!budget.reported && budget.count > LIMITS.componentsAtSave) {
      budget.reported = true;
      ctx.addIssue({ code: "custom", path, message: `more than ${LIMITS.componentsAtSave} components (reusable components included)` });
    }
    if (depth > LIMITS.depthAtSave) {
      ctx.addIssue({ code: "custom", path, message: `components nest deeper than ${LIMITS.depthAtSave} levels` });
      continue;
    }
    if (node.type === "container" || node.type === "repeat") {
      node.children.forEach((c, i) => stack.push({ node: c, depth: depth + 1, path: [...path, "children", i] }));
    }
    if (node.type === "repeat" && node.empty) node.empty.forEach((c, i) => stack.push({ node: c, depth: depth + 1, path: [...path, "empty", i] }));
  }
}

function checkLimits(c: { root: ComponentNode; components?: Record<string, ReusableComponent> }, ctx: z.RefinementCtx) {
  const budget = { count: 0, reported: false };
  checkTree(c.root, ["root"], budget, ctx);
  for (const [key, r] of Object.entries(c.components ?? {})) checkTree(r.root, ["components", key, "root"], budget, ctx);
}

export const Composition = named(z
  .strictObject({
    root: Component,
    components: Components.optional(),
    stylesheets: z.array(z.string().min(1).max(1000)).max(LIMITS.stylesheets).optional(),
    header: z.string().max(LIMITS.headerFooterChars).optional(),
    footer: z.string().max(LIMITS.headerFooterChars).optional(),
  })
  .superRefine(checkLimits),
  "Composition",
  "The document: root, the reusable components it names, stylesheets (workspace file paths), and the page header and footer (Handlebars with the data, {{pageNumber}} and {{totalPages}}). At most 1,000 components and 50 levels.",
  [{ root: { type: "text", text: "Hello" }, footer: "Page {{pageNumber}} of {{totalPages}}" }],
);
export type Composition = z.infer<typeof Composition>;

/** A translation file's locale: a BCP 47 tag of up to 80 characters (spec: translation files, names up to 80). */
export const TranslationLocale = z
  .string()
  .min(2)
  .max(LIMITS.translationLocaleChars)
  .refine((l) => {
    try {
      return Intl.getCanonicalLocales(l).length === 1;
    } catch {
      return false;
    }
  }, "is not a BCP 47 language tag");

export const Translations = named(
  z
    .record(TranslationLocale, JsonObject)
    .refine((t) => Object.keys(t).length <= LIMITS.translations, `at most ${LIMITS.translations} translation files`),
  "Translations",
  "Translation files, one JSON object per locale (up to 20; locale names are BCP 47 tags of up to 80 characters). The file for the render language (exactly, else its language: de-AT falls back to de) is added to the data as localization, unless the data already has that key; bindings read it like any data: {\"path\": [\"localization\", \"greeting\"]}.",
  [{ de: { greeting: "Hallo" }, "de-AT": { greeting: "Servus" }, en: { greeting: "Hello" } }],
);
export type Translations = z.infer<typeof Translations>;

/** The content of a component template: composition, page settings, translation files, and the extras every kind has. */
export const ComponentContent = z
  .strictObject({ composition: Composition, settings: PageSettings.optional(), translations: Translations.optional(), ...templateContentExtras })
  .superRefine(checkContentExtras)
  .meta({
    description:
      "The content of a component template: the composition, its page settings, its translation files, a JSON Schema of its data (dataSchema), and content fields (contentFields) with their values (contentValues), read as content.<name>.",
    examples: [{ composition: { root: { type: "text", text: "Hello" } }, settings: { locale: "de-DE" } }],
  });
export type ComponentContent = z.infer<typeof ComponentContent>;

/** A node document (POST /v1/renders `nodeDocument`): the same components, literal values only. */
export const NodeDocument = z
  .strictObject({
    root: Component,
    components: Components.optional(),
    settings: PageSettings.optional(),
    stylesheets: z.array(z.string().max(1_000_000)).max(LIMITS.stylesheets).optional(),
  })
  .superRefine(checkLimits);
export type NodeDocument = z.infer<typeof NodeDocument>;

/** JSON Schema (draft 2020-12) of a component template's content, for the console editor. */
export function componentTemplateJsonSchema() {
  // why: reused "inline": only the named definitions become $defs, never a numbered __schemaN.
  return z.toJSONSchema(ComponentContent, { unrepresentable: "any", cycles: "ref", reused: "inline" });
}
