/**
 * The component template language (spec: Resources > Component template): one zod schema tree,
 * used to validate drafts at save, node documents at render, and exported as JSON Schema for the
 * console editor (componentTemplateJsonSchema). Limits checked here are the spec's "save" limits;
 * the "render" limits are the expansion's (expand.ts).
 */
import { z } from "zod";
import { Locale, PageSettings } from "../renders/page-settings";

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
} as const;

const REFUSED_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

/** A reusable component key or table column id: letters, digits, _ and -, starting with a letter or digit. */
export const Identifier = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "must be letters, digits, _ and -, starting with a letter or digit");

export const Path = z
  .array(
    z
      .string()
      .min(1)
      .max(LIMITS.segmentChars)
      .refine((s) => !REFUSED_SEGMENTS.has(s), "__proto__, constructor and prototype are refused as property names"),
  )
  .min(1)
  .max(LIMITS.pathSegments);

export const Scope = z.enum(["current", "root"]);

/** Where repeat, table and component read their data: only path and scope. */
export const DataSource = z.strictObject({ path: Path, scope: Scope.optional() });
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

export const Format = z
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
  });
export type Format = z.infer<typeof Format>;

const Plain = z.union([z.string().max(LIMITS.literalChars), z.number().finite(), z.boolean()]);

export const Binding = z.strictObject({
  path: Path,
  scope: Scope.optional(),
  fallback: Plain.optional(),
  format: Format.optional(),
  prefix: z.string().max(1000).optional(),
  suffix: z.string().max(1000).optional(),
});
export type Binding = z.infer<typeof Binding>;

export const Mixed = z.strictObject({ parts: z.array(z.union([Plain, Binding])).min(1).max(LIMITS.mixedParts) });
export type Mixed = z.infer<typeof Mixed>;

/** A value: a literal string (up to 100,000 characters), number or boolean; a binding; mixed text. */
export const Value = z.union([Plain, Binding, Mixed]);
export type Value = z.infer<typeof Value>;

export const Condition = z.strictObject({
  path: Path,
  scope: Scope.optional(),
  operator: z.enum(["truthy", "falsy", "exists", "notExists", "equals", "notEquals"]),
  value: z.union([z.string().max(LIMITS.literalChars), z.number().finite(), z.boolean()]).optional(),
}).superRefine((c, ctx) => {
  if (c.value !== undefined && c.operator !== "equals" && c.operator !== "notEquals")
    ctx.addIssue({ code: "custom", path: ["value"], message: "applies only to the operators equals and notEquals" });
});
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
export const Style = z
  .record(
    z.string().regex(/^(?:[a-zA-Z][a-zA-Z0-9]{0,63}|--[a-zA-Z0-9_-]{1,62})$/, "must be a CSS property name in camelCase"),
    StyleValue,
  )
  .refine((s) => Object.keys(s).length <= LIMITS.styleProperties, `at most ${LIMITS.styleProperties} properties`);
export type Style = z.infer<typeof Style>;

const common = {
  style: Style.optional(),
  className: z.string().max(1000).optional(),
  visibleWhen: Condition.optional(),
};

const Children = () => z.array(Component).max(LIMITS.childrenPerList);

export const Column = z.strictObject({
  id: Identifier,
  header: z.string().max(1000),
  value: Value,
  width: z.number().finite().gt(0).max(2000).optional(),
  style: Style.optional(),
});
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

export const Component: z.ZodType<ComponentNode> = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("container"), ...common, children: Children() }),
    z.strictObject({ type: z.literal("text"), ...common, text: Value }),
    z.strictObject({
      type: z.literal("image"),
      ...common,
      assetId: z.union([z.string().min(1).max(128), Binding]),
      width: z.number().finite().gt(0).max(100_000).optional(),
      height: z.number().finite().gt(0).max(100_000).optional(),
    }),
    z.strictObject({ type: z.literal("repeat"), ...common, source: DataSource, children: Children(), empty: Children().optional() }),
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
    z.strictObject({ type: z.literal("component"), ...common, componentId: z.string().min(1).max(128), data: DataSource.optional() }),
  ]),
);

export const ReusableComponent = z.strictObject({ name: z.string().min(1).max(200), root: Component });
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

export const Composition = z
  .strictObject({
    root: Component,
    components: Components.optional(),
    stylesheets: z.array(z.string().min(1).max(1000)).max(LIMITS.stylesheets).optional(),
    header: z.string().max(LIMITS.headerFooterChars).optional(),
    footer: z.string().max(LIMITS.headerFooterChars).optional(),
  })
  .superRefine(checkLimits);
export type Composition = z.infer<typeof Composition>;

/** The content of a component template: composition and page settings. */
export const ComponentContent = z.strictObject({ composition: Composition, settings: PageSettings.optional() });
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
  return z.toJSONSchema(ComponentContent, { unrepresentable: "any", cycles: "ref", reused: "ref" });
}
