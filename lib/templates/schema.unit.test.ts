import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { fromZodError } from "../errors";
import { Component, ComponentContent, Composition, componentTemplateJsonSchema, definitions, LIMITS, NodeDocument } from "./schema";

/**
 * One table per rule of the spec's component tables (Resources > Component template; Limits >
 * Components). A row without `path` must be accepted; a row with `path` must be refused with every
 * issue at exactly that path (dot-joined as the API's details[].path) and one message containing
 * `message`.
 */
type Case = { name: string; value: unknown; path?: string | RegExp; message?: string };

const ok = (name: string, value: unknown): Case => ({ name, value });
const bad = (name: string, value: unknown, path: string | RegExp, message: string): Case => ({ name, value, path, message });

/** The API's view of a refusal: details as fromZodError builds them (unknown fields named one by one). */
function details(schema: z.ZodType, value: unknown): { path: string; message: string }[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return (fromZodError(r.error).details ?? []).map((d) => ({ path: d.path ?? "", message: d.message }));
}

function rule(title: string, schema: z.ZodType, cases: Case[]) {
  describe(title, () => {
    it.each(cases)("$name", (c) => {
      const found = details(schema, c.value);
      if (c.path === undefined) {
        expect(found).toEqual([]);
        return;
      }
      expect(found.length, "expected the value to be refused").toBeGreaterThan(0);
      for (const d of found) {
        if (typeof c.path === "string") expect(d.path).toBe(c.path);
        else expect(d.path).toMatch(c.path);
      }
      expect(found.map((d) => d.message)).toContainEqual(expect.stringContaining(c.message!));
    });
  });
}

// ---- builders -------------------------------------------------------------------------------

const T = { type: "text", text: "a" } as const;
const text = (value: unknown, extra: object = {}) => ({ type: "text", text: value, ...extra });
const bind = (extra: object) => text({ path: ["a"], ...extra });
const fmt = (format: object) => bind({ format });
const styled = (style: unknown) => ({ ...T, style });
const when = (visibleWhen: object) => ({ ...T, visibleWhen });
const container = (children: unknown[], extra: object = {}) => ({ type: "container", children, ...extra });
const texts = (n: number) => Array.from({ length: n }, () => T);
const col = (extra: object = {}) => ({ id: "c", header: "H", value: "v", ...extra });
const table = (extra: object = {}) => ({ type: "table", source: { path: ["rows"] }, columns: [col()], ...extra });
const tableCols = (columns: unknown[]) => table({ columns });
const repeat = (extra: object = {}) => ({ type: "repeat", source: { path: ["items"] }, children: [T], ...extra });
const comp = (root: unknown, extra: object = {}) => ({ root, ...extra });
/** A composition-level tree of `n` components: a container and n-1 texts. */
const wide = (n: number) => container(texts(n - 1));
/** n nested levels (the root is level 1), nested through `via`. */
function chain(n: number, via: "children" | "empty" = "children"): unknown {
  if (n === 1) return T;
  return via === "children" ? container([chain(n - 1, via)]) : repeat({ children: [], empty: [chain(n - 1, via)] });
}
const reusable = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, { name: `Component ${i}`, root: T }]));

const CSS_REFUSED = "must be a plain CSS value";

// ---- common component fields ----------------------------------------------------------------

rule("type: required, one of container, text, image, repeat, table, component", Component, [
  ok("container", container([])),
  ok("text", T),
  ok("image", { type: "image", assetId: "ast_1" }),
  ok("repeat", repeat()),
  ok("table", table()),
  ok("component", { type: "component", componentId: "header" }),
  bad("missing type", { text: "a" }, "type", "container"),
  bad("unknown type video", { type: "video" }, "type", "container"),
  bad("type as a number", { type: 5, text: "a" }, "type", "text"),
  bad("type in another case", { type: "Text", text: "a" }, "type", "text"),
]);

rule("style: camelCase CSS properties; numbers or safe strings", Component, [
  ok("strings and numbers", styled({ color: "#333", marginTop: 12, opacity: 0.5, width: 0, fontWeight: 600 })),
  ok("quoted font names and functions", styled({ fontFamily: '"Inter", sans-serif', transform: "rotate(3deg)", background: "linear-gradient(red, blue)" })),
  ok("vendor prefixes and custom properties", styled({ WebkitPrintColorAdjust: "exact", "--brand": "#0af" })),
  ok("data: URL without ;", styled({ backgroundImage: "url(data:image/svg+xml,%3Csvg%3E%3C/svg%3E)" })),
  ok("quoted data: URL without ;", styled({ backgroundImage: "url('data:image/svg+xml,%3Csvg%3E%3C/svg%3E')" })),
  // why: a data: URL is no outside resource; its `;base64,` is part of the URL, not a declaration end.
  ok("base64 data: URL", styled({ backgroundImage: "url(data:image/png;base64,AAA)" })),
  ok("quoted base64 data: URL", styled({ backgroundImage: 'url("data:image/png;base64,iVBORw0KGgo=")' })),
  ok("two data: URLs", styled({ backgroundImage: "url(data:image/png;base64,AAA), url( 'data:image/gif;base64,R0lG' )" })),
  ok("empty style", styled({})),
  ok(`${LIMITS.styleProperties} properties`, styled(Object.fromEntries(Array.from({ length: LIMITS.styleProperties }, (_, i) => [`p${i}`, i])))),
  bad(`${LIMITS.styleProperties + 1} properties`, styled(Object.fromEntries(Array.from({ length: LIMITS.styleProperties + 1 }, (_, i) => [`p${i}`, i]))), "style", `at most ${LIMITS.styleProperties}`),
  bad("kebab-case key", styled({ "background-color": "red" }), "style.background-color", "must be a CSS property name in camelCase"),
  bad("snake_case key", styled({ font_size: 12 }), "style.font_size", "must be a CSS property name in camelCase"),
  bad("key starting with a digit", styled({ "1color": "red" }), "style.1color", "must be a CSS property name in camelCase"),
  bad("key with a colon", styled({ "color:red;x": "red" }), "style.color:red;x", "must be a CSS property name in camelCase"),
  bad("declaration break-out with ;", styled({ color: "red; background:url(http://x)" }), "style.color", CSS_REFUSED),
  bad("url() to an outside resource", styled({ backgroundImage: "url(http://x)" }), "style.backgroundImage", CSS_REFUSED),
  bad("quoted URL() in upper case", styled({ backgroundImage: 'URL( "https://x/a.png")' }), "style.backgroundImage", CSS_REFUSED),
  bad("protocol-relative url()", styled({ backgroundImage: "url(//x/a.png)" }), "style.backgroundImage", CSS_REFUSED),
  bad("image-set()", styled({ backgroundImage: 'image-set("https://x/a.png" 1x)' }), "style.backgroundImage", CSS_REFUSED),
  bad("expression()", styled({ width: "expression(alert(1))" }), "style.width", CSS_REFUSED),
  bad("@import", styled({ fontFamily: "@import 'https://x/f.css'" }), "style.fontFamily", CSS_REFUSED),
  bad("</style>", styled({ fontFamily: "</style><script>alert(1)</script>" }), "style.fontFamily", CSS_REFUSED),
  bad("backslash escape", styled({ fontFamily: "\\75 rl(http://x)" }), "style.fontFamily", CSS_REFUSED),
  bad("opening brace", styled({ color: "red{" }), "style.color", CSS_REFUSED),
  bad("closing brace", styled({ color: "red}body{color:blue" }), "style.color", CSS_REFUSED),
  bad("comment", styled({ color: "red /* x */" }), "style.color", CSS_REFUSED),
  bad("data: URL followed by a declaration", styled({ backgroundImage: "url(data:image/png;base64,AAA);background:url(http://x)" }), "style.backgroundImage", CSS_REFUSED),
  bad("data: URL hiding braces", styled({ backgroundImage: "url(data:a;}body{color:red)" }), "style.backgroundImage", CSS_REFUSED),
  bad("data: URL next to an outside url()", styled({ backgroundImage: "url(data:image/png;base64,AAA), url(https://x/a.png)" }), "style.backgroundImage", CSS_REFUSED),
  bad("; after a quoted data: URL", styled({ backgroundImage: "url('data:image/png;base64,AAA'); color: red" }), "style.backgroundImage", CSS_REFUSED),
  bad(`value of ${LIMITS.styleValueChars + 1} characters`, styled({ content: "x".repeat(LIMITS.styleValueChars + 1) }), "style.content", `<=${LIMITS.styleValueChars}`),
  bad("boolean value", styled({ width: true }), "style.width", "Invalid"),
  bad("object value", styled({ width: { px: 1 } }), "style.width", "Invalid"),
  bad("null value", styled({ width: null }), "style.width", "Invalid"),
  bad("an array instead of an object", styled(["color"]), "style", "record"),
  bad("a string instead of an object", styled("color: red"), "style", "record"),
]);

rule("className: up to 1,000 characters", Component, [
  ok("space-separated classes", { ...T, className: "invoice total strong" }),
  ok("1,000 characters", { ...T, className: "x".repeat(1000) }),
  bad("1,001 characters", { ...T, className: "x".repeat(1001) }, "className", "<=1000"),
  bad("not a string", { ...T, className: ["a"] }, "className", "string"),
]);

rule("visibleWhen: path, scope, operator, value only for equals and notEquals", Component, [
  ...(["truthy", "falsy", "exists", "notExists", "equals", "notEquals"] as const).map((operator) => ok(`${operator} without value`, when({ path: ["a"], operator }))),
  ok("equals a string", when({ path: ["a"], operator: "equals", value: "paid" })),
  ok("equals a number", when({ path: ["a"], operator: "equals", value: 0 })),
  ok("equals a boolean", when({ path: ["a"], operator: "equals", value: false })),
  ok("notEquals a string", when({ path: ["a"], operator: "notEquals", value: "" })),
  ok("scope root", when({ path: ["a", "0"], scope: "root", operator: "exists" })),
  ok("scope current", when({ path: ["a"], scope: "current", operator: "exists" })),
  ...(["truthy", "falsy", "exists", "notExists"] as const).map((operator) =>
    bad(`value with ${operator}`, when({ path: ["a"], operator, value: 1 }), "visibleWhen.value", "equals and notEquals"),
  ),
  bad("unknown operator gt", when({ path: ["a"], operator: "gt", value: 1 }), "visibleWhen.operator", "truthy"),
  bad("operator missing", when({ path: ["a"] }), "visibleWhen.operator", "notEquals"),
  bad("path missing", when({ operator: "truthy" }), "visibleWhen.path", "array"),
  bad("empty path", when({ path: [], operator: "truthy" }), "visibleWhen.path", ">=1"),
  bad("21 path segments", when({ path: Array(21).fill("a"), operator: "truthy" }), "visibleWhen.path", "<=20"),
  bad("__proto__ in the path", when({ path: ["a", "__proto__"], operator: "truthy" }), "visibleWhen.path.1", "refused"),
  bad("scope other", when({ path: ["a"], scope: "other", operator: "truthy" }), "visibleWhen.scope", "root"),
  bad("object value", when({ path: ["a"], operator: "equals", value: { x: 1 } }), "visibleWhen.value", "Invalid"),
  bad("null value", when({ path: ["a"], operator: "equals", value: null }), "visibleWhen.value", "Invalid"),
  bad("unknown field", when({ path: ["a"], operator: "truthy", not: true }), "visibleWhen.not", "not a known field"),
]);

// ---- component types ------------------------------------------------------------------------

rule("container: children required, up to 1,000", Component, [
  ok("no children", container([])),
  ok("nested containers", container([container([T])])),
  ok("1,000 children", container(texts(1000))),
  bad("children missing", { type: "container" }, "children", "array"),
  bad("children not an array", container({ 0: T } as unknown as unknown[]), "children", "array"),
  bad("1,001 children", container(texts(1001)), "children", "<=1000"),
  bad("a bad child", container([T, { type: "video" }]), "children.1.type", "container"),
]);

rule("text: literal (<= 100,000), number, boolean, binding or mixed text (1 to 100 parts)", Component, [
  ok("literal string", text("Invoice")),
  ok("empty string", text("")),
  ok("100,000 characters", text("x".repeat(100_000))),
  ok("number", text(42.5)),
  ok("zero", text(0)),
  ok("boolean", text(false)),
  ok("binding", bind({})),
  ok("mixed text of 1 part", text({ parts: ["Total"] })),
  ok("mixed text of 100 parts", text({ parts: Array.from({ length: 100 }, (_, i) => (i % 2 ? { path: ["a"] } : i)) })),
  ok("mixed literals of every kind", text({ parts: ["Total: ", 3, true, { path: ["total"], prefix: "€ " }] })),
  bad("text missing", { type: "text" }, "text", "Invalid"),
  bad("100,001 characters", text("x".repeat(100_001)), "text", "<=100000"),
  bad("null", text(null), "text", "Invalid"),
  bad("array", text(["a"]), "text", "Invalid"),
  bad("mixed text of 0 parts", text({ parts: [] }), "text.parts", ">=1"),
  bad("mixed text of 101 parts", text({ parts: Array(101).fill("a") }), "text.parts", "<=100"),
  bad("mixed part of 100,001 characters", text({ parts: ["x".repeat(100_001)] }), "text.parts.0", "<=100000"),
  bad("mixed part with a bad binding", text({ parts: ["a", { path: [] }] }), "text.parts.1.path", ">=1"),
  bad("mixed part with a bad scope", text({ parts: [{ path: ["a"], scope: "x" }] }), "text.parts.0.scope", "root"),
  bad("mixed text with an unknown field", text({ parts: ["a"], join: "," }), "text.join", "not a known field"),
]);

rule("binding path: 1 to 20 names, each up to 128 characters, no __proto__/constructor/prototype", Component, [
  ok("1 segment", bind({ path: ["total"] })),
  ok("20 segments", bind({ path: Array(20).fill("a") })),
  ok("array index as a string", bind({ path: ["items", "0", "name"] })),
  ok("128-character name", bind({ path: ["x".repeat(128)] })),
  ok("names that only resemble refused ones", bind({ path: ["Constructor", "proto", "prototypes", "__proto"] })),
  bad("0 segments", bind({ path: [] }), "text.path", ">=1"),
  bad("21 segments", bind({ path: Array(21).fill("a") }), "text.path", "<=20"),
  bad("129-character name", bind({ path: ["x".repeat(129)] }), "text.path.0", "<=128"),
  bad("empty name", bind({ path: [""] }), "text.path.0", ">=1"),
  bad("__proto__", bind({ path: ["__proto__"] }), "text.path.0", "refused"),
  bad("constructor", bind({ path: ["a", "constructor"] }), "text.path.1", "refused"),
  bad("prototype", bind({ path: ["a", "b", "prototype"] }), "text.path.2", "refused"),
  bad("a number as a name", bind({ path: [0] }), "text.path.0", "string"),
  bad("a string instead of an array", bind({ path: "a.b" }), "text.path", "array"),
]);

rule("binding scope, fallback, prefix and suffix", Component, [
  ok("scope current", bind({ scope: "current" })),
  ok("scope root", bind({ scope: "root" })),
  ok("fallback string", bind({ fallback: "n/a" })),
  ok("fallback number", bind({ fallback: 0 })),
  ok("fallback boolean", bind({ fallback: false })),
  ok("prefix and suffix of 1,000", bind({ prefix: "x".repeat(1000), suffix: "y".repeat(1000) })),
  bad("scope other", bind({ scope: "other" }), "text.scope", "root"),
  bad("fallback object", bind({ fallback: { a: 1 } }), "text.fallback", "Invalid"),
  bad("fallback null", bind({ fallback: null }), "text.fallback", "Invalid"),
  bad("prefix of 1,001", bind({ prefix: "x".repeat(1001) }), "text.prefix", "<=1000"),
  bad("suffix of 1,001", bind({ suffix: "x".repeat(1001) }), "text.suffix", "<=1000"),
  bad("unknown field", bind({ default: "x" }), "text.default", "not a known field"),
]);

rule("format: type, locale, currency, fraction digits, dateStyle, timeZone and where each applies", Component, [
  ok("number", fmt({ type: "number" })),
  ok("percent with digits 0 and 20", fmt({ type: "percent", minimumFractionDigits: 0, maximumFractionDigits: 20 })),
  ok("currency EUR de-CH", fmt({ type: "currency", currency: "EUR", locale: "de-CH", minimumFractionDigits: 2, maximumFractionDigits: 2 })),
  ok("currency JPY ja-JP", fmt({ type: "currency", currency: "JPY", locale: "ja-JP" })),
  ok("date with every date field", fmt({ type: "date", locale: "fr-FR", dateStyle: "full", timeZone: "Europe/Zurich" })),
  ...(["short", "medium", "long", "full"] as const).map((dateStyle) => ok(`dateStyle ${dateStyle}`, fmt({ type: "date", dateStyle }))),
  ok("timeZone UTC", fmt({ type: "date", timeZone: "UTC" })),
  ok("timeZone America/New_York", fmt({ type: "date", timeZone: "America/New_York" })),
  ok("2-character locale", fmt({ type: "number", locale: "en" })),
  ok("64-character locale", fmt({ type: "number", locale: "de-CH-x-" + "abcdefgh-".repeat(6) + "ab" })),
  ok("min equal to max", fmt({ type: "number", minimumFractionDigits: 3, maximumFractionDigits: 3 })),
  bad("type missing", fmt({ locale: "en-US" }), "text.format.type", "number"),
  bad("unknown type", fmt({ type: "weird" }), "text.format.type", "currency"),
  bad("1-character locale", fmt({ type: "number", locale: "e" }), "text.format.locale", ">=2"),
  bad("65-character locale", fmt({ type: "number", locale: "de-CH-x-" + "abcdefgh-".repeat(6) + "abc" }), "text.format.locale", "<=64"),
  bad("invalid locale", fmt({ type: "number", locale: "not a locale!" }), "text.format.locale", "BCP 47"),
  bad("locale with an underscore", fmt({ type: "number", locale: "en_US" }), "text.format.locale", "BCP 47"),
  bad("currency missing for currency", fmt({ type: "currency" }), "text.format.currency", "required"),
  bad("currency for number", fmt({ type: "number", currency: "EUR" }), "text.format.currency", "applies only"),
  bad("currency for percent", fmt({ type: "percent", currency: "EUR" }), "text.format.currency", "applies only"),
  bad("currency for date", fmt({ type: "date", currency: "EUR" }), "text.format.currency", "applies only"),
  bad("lower-case currency", fmt({ type: "currency", currency: "eur" }), "text.format.currency", "ISO 4217"),
  bad("4-letter currency", fmt({ type: "currency", currency: "EURO" }), "text.format.currency", "ISO 4217"),
  bad("currency with a digit", fmt({ type: "currency", currency: "E1R" }), "text.format.currency", "ISO 4217"),
  bad("minimumFractionDigits 21", fmt({ type: "number", minimumFractionDigits: 21 }), "text.format.minimumFractionDigits", "<=20"),
  bad("maximumFractionDigits 21", fmt({ type: "currency", currency: "EUR", maximumFractionDigits: 21 }), "text.format.maximumFractionDigits", "<=20"),
  bad("minimumFractionDigits -1", fmt({ type: "number", minimumFractionDigits: -1 }), "text.format.minimumFractionDigits", ">=0"),
  bad("minimumFractionDigits 1.5", fmt({ type: "number", minimumFractionDigits: 1.5 }), "text.format.minimumFractionDigits", "int"),
  bad("minimumFractionDigits for date", fmt({ type: "date", minimumFractionDigits: 2 }), "text.format.minimumFractionDigits", "applies only"),
  bad("maximumFractionDigits for date", fmt({ type: "date", maximumFractionDigits: 2 }), "text.format.maximumFractionDigits", "applies only"),
  bad("min above max", fmt({ type: "percent", minimumFractionDigits: 3, maximumFractionDigits: 2 }), "text.format.minimumFractionDigits", "must not exceed"),
  bad("dateStyle for number", fmt({ type: "number", dateStyle: "short" }), "text.format.dateStyle", "applies only"),
  bad("unknown dateStyle", fmt({ type: "date", dateStyle: "tiny" }), "text.format.dateStyle", "short"),
  bad("timeZone for currency", fmt({ type: "currency", currency: "EUR", timeZone: "UTC" }), "text.format.timeZone", "applies only"),
  bad("invalid timeZone", fmt({ type: "date", timeZone: "Mars/Olympus_Mons" }), "text.format.timeZone", "IANA"),
  bad("unknown field", fmt({ type: "number", useGrouping: false }), "text.format.useGrouping", "not a known field"),
]);

rule("image: assetId string or binding; width and height above 0", Component, [
  ok("asset id", { type: "image", assetId: "ast_1" }),
  ok("binding", { type: "image", assetId: { path: ["logo"], scope: "root" } }),
  ok("width and height", { type: "image", assetId: "ast_1", width: 120, height: 0.5 }),
  bad("assetId missing", { type: "image" }, "assetId", "Invalid"),
  bad("empty assetId", { type: "image", assetId: "" }, "assetId", ">=1"),
  bad("numeric assetId", { type: "image", assetId: 5 }, "assetId", "Invalid"),
  bad("binding with an empty path", { type: "image", assetId: { path: [] } }, "assetId.path", ">=1"),
  bad("binding with an unknown field", { type: "image", assetId: { path: ["a"], alt: "x" } }, "assetId.alt", "not a known field"),
  bad("width 0", { type: "image", assetId: "ast_1", width: 0 }, "width", ">0"),
  bad("negative height", { type: "image", assetId: "ast_1", height: -1 }, "height", ">0"),
  bad("width as a string", { type: "image", assetId: "ast_1", width: "10px" }, "width", "number"),
]);

rule("repeat: source required (path and scope only), children required, empty up to 1,000", Component, [
  ok("source and children", repeat()),
  ok("source with scope root", repeat({ source: { path: ["a", "items"], scope: "root" } })),
  ok("empty list", repeat({ empty: [text("No items")] })),
  ok("1,000 empty components", repeat({ empty: texts(1000) })),
  ok("1,000 children", repeat({ children: texts(1000) })),
  bad("source missing", { type: "repeat", children: [T] }, "source", "object"),
  bad("source with an empty path", repeat({ source: { path: [] } }), "source.path", ">=1"),
  bad("source with 21 segments", repeat({ source: { path: Array(21).fill("a") } }), "source.path", "<=20"),
  bad("source with prototype", repeat({ source: { path: ["prototype"] } }), "source.path.0", "refused"),
  bad("source scope other", repeat({ source: { path: ["a"], scope: "other" } }), "source.scope", "root"),
  bad("source with a fallback", repeat({ source: { path: ["a"], fallback: [] } }), "source.fallback", "not a known field"),
  bad("source with a format", repeat({ source: { path: ["a"], format: { type: "number" } } }), "source.format", "not a known field"),
  bad("children missing", { type: "repeat", source: { path: ["a"] } }, "children", "array"),
  bad("1,001 children", repeat({ children: texts(1001) }), "children", "<=1000"),
  bad("1,001 empty components", repeat({ empty: texts(1001) }), "empty", "<=1000"),
]);

rule("table: source, 1 to 30 columns, showHeader, styles, emptyText", Component, [
  ok("one column", table()),
  ok("30 columns", tableCols(Array.from({ length: 30 }, (_, i) => col({ id: `c${i}` })))),
  ok("every table field", table({ showHeader: false, headerStyle: { fontWeight: 700 }, cellStyle: { padding: 4 }, emptyText: "x".repeat(10_000) })),
  ok("showHeader true", table({ showHeader: true })),
  ok("empty emptyText", table({ emptyText: "" })),
  bad("source missing", { type: "table", columns: [col()] }, "source", "object"),
  bad("source with a fallback", table({ source: { path: ["rows"], fallback: [] } }), "source.fallback", "not a known field"),
  bad("columns missing", { type: "table", source: { path: ["rows"] } }, "columns", "array"),
  bad("0 columns", tableCols([]), "columns", ">=1"),
  bad("31 columns", tableCols(Array.from({ length: 31 }, (_, i) => col({ id: `c${i}` }))), "columns", "<=30"),
  bad("duplicate column ids", tableCols([col({ id: "qty" }), col({ id: "price" }), col({ id: "qty" })]), "columns.2.id", "duplicates column id qty"),
  bad("showHeader as a string", table({ showHeader: "no" }), "showHeader", "boolean"),
  bad("emptyText of 10,001", table({ emptyText: "x".repeat(10_001) }), "emptyText", "<=10000"),
  bad("unsafe headerStyle", table({ headerStyle: { color: "red;x" } }), "headerStyle.color", CSS_REFUSED),
  bad("unsafe cellStyle", table({ cellStyle: { "padding-left": 3 } }), "cellStyle.padding-left", "must be a CSS property name in camelCase"),
]);

rule("table column: id, header, value, width, style", Component, [
  ...["a", "A1", "1a", "9", "a_b-c", "x".repeat(128)].map((id) => ok(`id ${id.length > 10 ? "of 128 characters" : id}`, tableCols([col({ id })]))),
  ok("empty header", tableCols([col({ header: "" })])),
  ok("header of 1,000", tableCols([col({ header: "x".repeat(1000) })])),
  ok("binding value read from the row", tableCols([col({ value: { path: ["qty"], format: { type: "number" } } })])),
  ok("mixed value", tableCols([col({ value: { parts: [{ path: ["qty"] }, " pcs"] } })])),
  ok("width 2,000", tableCols([col({ width: 2000 })])),
  ok("width 0.5", tableCols([col({ width: 0.5 })])),
  ok("column style", tableCols([col({ style: { textAlign: "right" } })])),
  ...["-a", "_a", "a b", "a.b", "é", ""].map((id) => bad(`id ${JSON.stringify(id)}`, tableCols([col({ id })]), "columns.0.id", id ? "starting with a letter or digit" : ">=1")),
  bad("id of 129 characters", tableCols([col({ id: "x".repeat(129) })]), "columns.0.id", "<=128"),
  bad("id missing", tableCols([{ header: "H", value: "v" }]), "columns.0.id", "string"),
  bad("header missing", tableCols([{ id: "c", value: "v" }]), "columns.0.header", "string"),
  bad("header of 1,001", tableCols([col({ header: "x".repeat(1001) })]), "columns.0.header", "<=1000"),
  bad("value missing", tableCols([{ id: "c", header: "H" }]), "columns.0.value", "Invalid"),
  bad("value binding with constructor", tableCols([col({ value: { path: ["constructor"] } })]), "columns.0.value.path.0", "refused"),
  bad("width 0", tableCols([col({ width: 0 })]), "columns.0.width", ">0"),
  bad("width 2,001", tableCols([col({ width: 2001 })]), "columns.0.width", "<=2000"),
  bad("negative width", tableCols([col({ width: -10 })]), "columns.0.width", ">0"),
  bad("percent width as a string", tableCols([col({ width: "50%" })]), "columns.0.width", "number"),
  bad("unsafe column style", tableCols([col({ style: { color: "url(http://x)" } })]), "columns.0.style.color", CSS_REFUSED),
  bad("unknown column field", tableCols([col({ align: "right" })]), "columns.0.align", "not a known field"),
]);

rule("component: componentId required; data takes only path and scope", Component, [
  ok("componentId", { type: "component", componentId: "address" }),
  ok("with data", { type: "component", componentId: "address", data: { path: ["customer", "address"], scope: "root" } }),
  bad("componentId missing", { type: "component" }, "componentId", "string"),
  bad("empty componentId", { type: "component", componentId: "" }, "componentId", ">=1"),
  bad("data with a fallback", { type: "component", componentId: "a", data: { path: ["x"], fallback: "y" } }, "data.fallback", "not a known field"),
  bad("data with a prefix", { type: "component", componentId: "a", data: { path: ["x"], prefix: "y" } }, "data.prefix", "not a known field"),
  bad("data with an empty path", { type: "component", componentId: "a", data: { path: [] } }, "data.path", ">=1"),
  bad("data with __proto__", { type: "component", componentId: "a", data: { path: ["__proto__"] } }, "data.path.0", "refused"),
]);

// ---- composition ----------------------------------------------------------------------------

const depthPath = (prefix: string, levels: number, via = "children") => prefix + `.${via}.0`.repeat(levels);

rule("composition: root, components (keys, names, at most 100), stylesheets, header, footer", Composition, [
  ok("root only", comp(T)),
  ok("every field", comp(container([{ type: "component", componentId: "addr" }]), {
    components: { addr: { name: "Address block", root: container([bind({})]) } },
    stylesheets: ["styles/base.css", "styles/print.css"],
    header: "<div>{{pageNumber}}</div>",
    footer: "<div>Page {{pageNumber}} of {{totalPages}}</div>",
  })),
  ...["a", "A-1_b", "9x", "x".repeat(128)].map((key) => ok(`component key ${key.length > 10 ? "of 128 characters" : key}`, comp(T, { components: { [key]: { name: "n", root: T } } }))),
  ok("component name of 200", comp(T, { components: { a: { name: "x".repeat(200), root: T } } })),
  ok("100 reusable components", comp(T, { components: reusable(100) })),
  ok("20 stylesheets", comp(T, { stylesheets: Array.from({ length: 20 }, (_, i) => `s${i}.css`) })),
  ok("header and footer of 100,000", comp(T, { header: "h".repeat(100_000), footer: "f".repeat(100_000) })),
  bad("root missing", {}, "root", "object"),
  bad("root not an object", comp("text"), "root", "object"),
  ...["-a", "_a", "a b", "a.b", "x".repeat(129)].map((key) =>
    bad(`component key ${key.length > 10 ? "of 129 characters" : JSON.stringify(key)}`, comp(T, { components: { [key]: { name: "n", root: T } } }), `components.${key}`, key.length > 128 ? "<=128" : "must be letters, digits, _ and -"),
  ),
  bad("component name missing", comp(T, { components: { a: { root: T } } }), "components.a.name", "string"),
  bad("empty component name", comp(T, { components: { a: { name: "", root: T } } }), "components.a.name", ">=1"),
  bad("component name of 201", comp(T, { components: { a: { name: "x".repeat(201), root: T } } }), "components.a.name", "<=200"),
  bad("reusable component root missing", comp(T, { components: { a: { name: "n" } } }), "components.a.root", "object"),
  bad("bad reusable component root", comp(T, { components: { a: { name: "n", root: { type: "text" } } } }), "components.a.root.text", "Invalid"),
  bad("101 reusable components", comp(T, { components: reusable(101) }), "components", "at most 100 reusable components"),
  bad("21 stylesheets", comp(T, { stylesheets: Array.from({ length: 21 }, (_, i) => `s${i}.css`) }), "stylesheets", "<=20"),
  bad("empty stylesheet path", comp(T, { stylesheets: [""] }), "stylesheets.0", ">=1"),
  bad("header of 100,001", comp(T, { header: "h".repeat(100_001) }), "header", "<=100000"),
  bad("footer of 100,001", comp(T, { footer: "f".repeat(100_001) }), "footer", "<=100000"),
]);

rule("limits at save: 1,000 components (reusable included), depth 50 (the root is 1)", Composition, [
  ok("1,000 components in root", comp(wide(1000))),
  ok("500 in root and 500 in a reusable component", comp(wide(500), { components: { a: { name: "a", root: wide(500) } } })),
  ok("depth 50 through children", comp(chain(50))),
  ok("depth 50 through repeat empty", comp(chain(50, "empty"))),
  ok("depth 50 in a reusable component", comp(T, { components: { a: { name: "a", root: chain(50) } } })),
  bad("1,001 components in root", comp(wide(1001)), /^root(\.children\.\d+)?$/, "more than 1000 components"),
  bad("500 in root and 501 in a reusable component", comp(wide(500), { components: { a: { name: "a", root: wide(501) } } }), /^components\.a\.root(\.children\.\d+)?$/, "more than 1000 components"),
  bad("1,000 in root and one reusable component", comp(wide(1000), { components: { a: { name: "a", root: T } } }), "components.a.root", "more than 1000 components"),
  bad("a container with 1,000 children (1,001 with itself)", comp(container(texts(1000))), /^root(\.children\.\d+)?$/, "more than 1000 components"),
  bad("depth 51 through children", comp(chain(51)), depthPath("root", 50), "nest deeper than 50 levels"),
  bad("depth 51 through repeat empty", comp(chain(51, "empty")), depthPath("root", 50, "empty"), "nest deeper than 50 levels"),
  bad("depth 51 in a reusable component", comp(T, { components: { a: { name: "a", root: chain(51) } } }), depthPath("components.a.root", 50), "nest deeper than 50 levels"),
]);

rule("content: composition and settings", ComponentContent, [
  ok("composition only", { composition: comp(T) }),
  ok("with page settings", { composition: comp(T), settings: { pageSize: { widthMm: 210, heightMm: 297 }, margins: { topMm: 20 }, locale: "de-CH" } }),
  bad("composition missing", { settings: {} }, "composition", "object"),
  bad("bad component deep inside", { composition: comp(container([table({ columns: [] })])) }, "composition.root.children.0.columns", ">=1"),
  bad("bad settings", { composition: comp(T), settings: { margins: { topMm: -1 } } }, "settings.margins.topMm", ">=0"),
]);

rule("translations: up to 20 JSON objects keyed by BCP 47 locales of up to 80 characters", ComponentContent, [
  ok("a few locales", { composition: comp(T), translations: { de: { hello: "Hallo", nested: { a: [1] } }, "de-AT": {}, "zh-Hant-TW": { x: "y" } } }),
  ok("twenty", { composition: comp(T), translations: Object.fromEntries(["de", "en", "fr", "it", "es", "pt", "nl", "sv", "da", "fi", "pl", "cs", "sk", "hu", "ro", "bg", "el", "tr", "ja", "ko"].map((l) => [l, {}])) }),
  ok("an 80-character tag", { composition: comp(T), translations: { [`en-x-${"abcdefgh-".repeat(8)}abcdefg`.slice(0, 80)]: {} } }),
  bad("twenty-one", { composition: comp(T), translations: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`en-x-t${i}`, {}])) }, "translations", "at most 20 translation files"),
  bad("not a language tag", { composition: comp(T), translations: { "not a locale": {} } }, /^translations/, "BCP 47"),
  bad("a file that is not an object", { composition: comp(T), translations: { de: ["Hallo"] } }, "translations.de", "expected record"),
  bad("a string file", { composition: comp(T), translations: { de: "Hallo" } }, "translations.de", "expected record"),
]);

// ---- unknown fields anywhere ----------------------------------------------------------------

rule("unknown fields are refused at every level", ComponentContent, [
  bad("content", { composition: comp(T), theme: "dark" }, "theme", "not a known field"),
  bad("settings", { composition: comp(T), settings: { orientation: "landscape" } }, "settings.orientation", "not a known field"),
  bad("composition", { composition: comp(T, { scripts: [] }) }, "composition.scripts", "not a known field"),
  bad("container", { composition: comp(container([], { layout: "row" })) }, "composition.root.layout", "not a known field"),
  bad("text", { composition: comp({ ...T, html: "<b>" }) }, "composition.root.html", "not a known field"),
  bad("image", { composition: comp({ type: "image", assetId: "ast_1", src: "http://x" }) }, "composition.root.src", "not a known field"),
  bad("repeat", { composition: comp(repeat({ limit: 3 })) }, "composition.root.limit", "not a known field"),
  bad("table", { composition: comp(table({ rows: [] })) }, "composition.root.rows", "not a known field"),
  bad("component", { composition: comp({ type: "component", componentId: "a", props: {} }) }, "composition.root.props", "not a known field"),
  bad("column", { composition: comp(tableCols([col({ sortable: true })])) }, "composition.root.columns.0.sortable", "not a known field"),
  bad("binding", { composition: comp(bind({ expression: "a+b" })) }, "composition.root.text.expression", "not a known field"),
  bad("format", { composition: comp(fmt({ type: "number", style: "unit" })) }, "composition.root.text.format.style", "not a known field"),
  bad("mixed text", { composition: comp(text({ parts: ["a"], separator: " " })) }, "composition.root.text.separator", "not a known field"),
  bad("condition", { composition: comp(when({ path: ["a"], operator: "truthy", negate: true })) }, "composition.root.visibleWhen.negate", "not a known field"),
  bad("data source", { composition: comp(repeat({ source: { path: ["a"], filter: "x" } })) }, "composition.root.source.filter", "not a known field"),
  bad("reusable component", { composition: comp(T, { components: { a: { name: "n", root: T, description: "d" } } }) }, "composition.components.a.description", "not a known field"),
]);

// ---- node documents -------------------------------------------------------------------------

rule("node document: the same components", NodeDocument, [
  ok("every component type", {
    root: container([
      T,
      { type: "image", assetId: "ast_1", width: 10 },
      repeat({ empty: [text("none")] }),
      table({ showHeader: false }),
      { type: "component", componentId: "box", visibleWhen: { path: ["a"], operator: "exists" } },
    ]),
    components: { box: { name: "Box", root: container([text({ parts: ["x", 1] })], { style: { padding: 4 } }) } },
    settings: { locale: "ja-JP" },
  }),
  ok("1,000 components", { root: wide(1000) }),
  ok("depth 50", { root: chain(50) }),
  bad("unknown type", { root: { type: "video" } }, "root.type", "container"),
  bad("unknown field", { root: T, composition: {} }, "composition", "not a known field"),
  bad("0 columns", { root: tableCols([]) }, "root.columns", ">=1"),
  bad("refused path name", { root: bind({ path: ["constructor"] }) }, "root.text.path.0", "refused"),
  bad("unsafe style", { root: styled({ background: "url(https://tracker.example/x.gif)" }) }, "root.style.background", CSS_REFUSED),
  bad("bad component key", { root: T, components: { "-x": { name: "n", root: T } } }, "components.-x", "must be letters, digits, _ and -"),
  bad("101 reusable components", { root: T, components: reusable(101) }, "components", "at most 100"),
  bad("1,001 components", { root: wide(1001) }, /^root(\.children\.\d+)?$/, "more than 1000 components"),
  bad("depth 51", { root: chain(51) }, depthPath("root", 50), "nest deeper than 50 levels"),
  bad("21 stylesheets", { root: T, stylesheets: Array(21).fill("p{}") }, "stylesheets", "<=20"),
]);

// ---- JSON Schema ----------------------------------------------------------------------------

type Json = Record<string, unknown>;

/**
 * A small validator for exactly the keywords the exported schema uses, so the test can check that
 * the JSON Schema and the zod tree agree on documents. It throws on a keyword it does not know.
 */
function validate(root: Json, schema: Json, v: unknown): boolean {
  const known = new Set([
    "$schema", "$defs", "$ref", "type", "const", "enum", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
    "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "pattern", "oneOf", "anyOf", "propertyNames", "description", "examples",
  ]);
  for (const k of Object.keys(schema)) if (!known.has(k)) throw new Error(`validator lacks keyword ${k}`);
  if (typeof schema.$ref === "string") {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name ? (root.$defs as Record<string, Json>)[name] : undefined;
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    if (!validate(root, target, v)) return false;
  }
  const typeOk = (t: string) =>
    t === "object" ? typeof v === "object" && v !== null && !Array.isArray(v)
    : t === "array" ? Array.isArray(v)
    : t === "integer" ? Number.isInteger(v)
    : t === "null" ? v === null
    : typeof v === t;
  if (schema.type !== undefined && !([schema.type].flat() as string[]).some(typeOk)) return false;
  if ("const" in schema && v !== schema.const) return false;
  if (schema.enum && !(schema.enum as unknown[]).includes(v)) return false;
  if (typeof v === "string") {
    if (typeof schema.minLength === "number" && [...v].length < schema.minLength) return false;
    if (typeof schema.maxLength === "number" && [...v].length > schema.maxLength) return false;
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(v)) return false;
  }
  if (typeof v === "number") {
    if (typeof schema.minimum === "number" && v < schema.minimum) return false;
    if (typeof schema.maximum === "number" && v > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === "number" && v <= schema.exclusiveMinimum) return false;
  }
  if (Array.isArray(v)) {
    if (typeof schema.minItems === "number" && v.length < schema.minItems) return false;
    if (typeof schema.maxItems === "number" && v.length > schema.maxItems) return false;
    if (schema.items && !v.every((x) => validate(root, schema.items as Json, x))) return false;
  }
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const o = v as Json;
    const props = (schema.properties ?? {}) as Record<string, Json>;
    if (schema.required && !(schema.required as string[]).every((k) => k in o)) return false;
    for (const [k, x] of Object.entries(o)) {
      if (schema.propertyNames && !validate(root, schema.propertyNames as Json, k)) return false;
      if (props[k]) {
        if (!validate(root, props[k], x)) return false;
      } else if (schema.additionalProperties === false) return false;
      else if (typeof schema.additionalProperties === "object" && !validate(root, schema.additionalProperties as Json, x)) return false;
    }
  }
  if (schema.anyOf && !(schema.anyOf as Json[]).some((s) => validate(root, s, v))) return false;
  if (schema.oneOf && (schema.oneOf as Json[]).filter((s) => validate(root, s, v)).length !== 1) return false;
  return true;
}

/** The definition a `$ref` names, followed until it is not a reference. */
function deref(root: Json, s: Json): Json {
  return typeof s.$ref === "string" ? deref(root, (root.$defs as Record<string, Json>)[s.$ref.replace("#/$defs/", "")]!) : s;
}

describe("componentTemplateJsonSchema", () => {
  const schema = componentTemplateJsonSchema() as Json;
  const realistic = {
    composition: comp(
      container([
        text({ parts: ["Invoice ", { path: ["number"] }] }, { style: { fontSize: 24, fontWeight: 700 } }),
        { type: "image", assetId: "ast_logo", width: 120 },
        table({
          source: { path: ["lines"] },
          columns: [col({ id: "qty", header: "Qty", value: { path: ["qty"], format: { type: "number", maximumFractionDigits: 0 } }, width: 60 })],
          emptyText: "No lines",
        }),
        repeat({ source: { path: ["notes"], scope: "root" }, empty: [text("No notes")] }),
        { type: "component", componentId: "totals", data: { path: ["totals"] }, visibleWhen: { path: ["totals"], operator: "exists" } },
        bind({ path: ["issuedAt"], format: { type: "date", dateStyle: "long", timeZone: "Europe/Zurich", locale: "de-CH" }, fallback: "-" }),
      ]),
      {
        components: { totals: { name: "Totals", root: bind({ path: ["gross"], format: { type: "currency", currency: "CHF" } }) } },
        stylesheets: ["invoice.css"],
        footer: "Page {{pageNumber}} of {{totalPages}}",
      },
    ),
    settings: { pageSize: { widthMm: 210, heightMm: 297 }, margins: { topMm: 15, bottomMm: 15 }, locale: "de-CH" },
  };

  it("is a draft 2020-12 object schema of {composition, settings?, translations?, dataSchema?, contentFields?, contentValues?} that survives JSON", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema).toMatchObject({ type: "object", required: ["composition"], additionalProperties: false });
    const props = schema.properties as Record<string, Json>;
    expect(Object.keys(props).sort()).toEqual(["composition", "contentFields", "contentValues", "dataSchema", "settings", "translations"]);
    const composition = deref(schema, props.composition!);
    expect(composition).toMatchObject({ type: "object", required: ["root"], additionalProperties: false });
    expect(Object.keys(composition.properties as Json).sort()).toEqual(["components", "footer", "header", "root", "stylesheets"]);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it("resolves every $ref, and the root component is one of the six types, each strict", () => {
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    expect(JSON.stringify(schema).match(/"\$ref"/g)).toHaveLength(refs.length);
    const defs = schema.$defs as Record<string, Json>;
    for (const r of refs) expect(defs[r], r).toBeDefined();
    const composition = deref(schema, (schema.properties as Record<string, Json>).composition!);
    const component = deref(schema, (composition.properties as Record<string, Json>).root!);
    const members = (component.oneOf as Json[]).map((m) => deref(schema, m));
    expect(members.map((m) => deref(schema, (m.properties as Record<string, Json>).type!).const).sort()).toEqual(["component", "container", "image", "repeat", "table", "text"]);
    for (const m of members) {
      expect(m.additionalProperties).toBe(false);
      expect(m.required).toContain("type");
    }
  });

  it("names its definitions after the component types and fields, each with a description and examples that validate", () => {
    const defs = schema.$defs as Record<string, Json>;
    expect(JSON.stringify(schema)).not.toContain("__schema");
    expect(Object.keys(defs)).toEqual(
      expect.arrayContaining([
        "ContainerComponent", "TextComponent", "ImageComponent", "RepeatComponent", "TableComponent", "ComponentReference", "Component",
        "Column", "Value", "Literal", "Binding", "MixedText", "Format", "Condition", "DataSource", "DataPath", "Scope", "Style",
        "ReusableComponent", "Composition", "PageSettings", "Locale",
      ]),
    );
    for (const [id, def] of Object.entries(defs)) {
      expect(def.description, id).toEqual(expect.stringMatching(/\w{3,}/));
      expect(def.examples, id).toEqual(expect.arrayContaining([expect.anything()]));
      const zodSchema = definitions[id];
      expect(zodSchema, `${id} is a registered definition`).toBeDefined();
      for (const example of def.examples as unknown[]) {
        const parsed = zodSchema!.safeParse(example);
        expect(parsed.success, `${id} example ${JSON.stringify(example)}: ${parsed.error?.message}`).toBe(true);
        expect(validate(schema, def, example), `${id} example against the JSON Schema`).toBe(true);
      }
    }
    // One named definition per component type, the type's own literal in each.
    for (const type of ["container", "text", "image", "repeat", "table", "component"]) {
      const id = type === "component" ? "ComponentReference" : `${type[0]!.toUpperCase()}${type.slice(1)}Component`;
      expect((defs[id]!.properties as Record<string, Json>).type).toEqual({ type: "string", const: type });
    }
    // The whole content's own example, too.
    for (const example of schema.examples as unknown[]) expect(ComponentContent.safeParse(example).success).toBe(true);
  });

  it("agrees with the zod tree on valid and plainly invalid documents", () => {
    expect(ComponentContent.safeParse(realistic).success).toBe(true);
    expect(validate(schema, schema, realistic)).toBe(true);
    expect(validate(schema, schema, { composition: comp(T) })).toBe(true);
    const invalid: [string, unknown][] = [
      ["no composition", { settings: {} }],
      ["no root", { composition: {} }],
      ["unknown component type", { composition: comp({ type: "video" }) }],
      ["unknown field", { composition: comp({ ...T, onclick: "x" }) }],
      ["0 columns", { composition: comp(tableCols([])) }],
      ["31 columns", { composition: comp(tableCols(Array.from({ length: 31 }, (_, i) => col({ id: `c${i}` })))) }],
      ["21 path segments", { composition: comp(bind({ path: Array(21).fill("a") })) }],
      ["column id -a", { composition: comp(tableCols([col({ id: "-a" })])) }],
      ["component key a b", { composition: comp(T, { components: { "a b": { name: "n", root: T } } }) }],
      ["kebab-case style key", { composition: comp(styled({ "font-size": 3 })) }],
      ["operator gt", { composition: comp(when({ path: ["a"], operator: "gt" })) }],
      ["scope other", { composition: comp(bind({ scope: "other" })) }],
      ["21 stylesheets", { composition: comp(T, { stylesheets: Array(21).fill("a.css") }) }],
      ["header of 100,001", { composition: comp(T, { header: "h".repeat(100_001) }) }],
    ];
    for (const [name, doc] of invalid) {
      expect(ComponentContent.safeParse(doc).success, name).toBe(false);
      expect(validate(schema, schema, doc), name).toBe(false);
    }
  });
});
