import { describe, expect, it } from "vitest";
import { thrown } from "../testing/app-error";
import { expand, type ExpandInput } from "./expand";
import { Component, Composition, NodeDocument, type ComponentNode } from "./schema";

// Every input goes through the schema first, so the tests only use valid compositions.
type Options = { components?: unknown; css?: string[]; lang?: string; images?: Record<string, string> };

function run(root: unknown, data: unknown = {}, options: Options = {}) {
  const c = Composition.parse({ root, components: options.components });
  const images = options.images && new Map(Object.entries(options.images));
  return expand({ root: c.root, components: c.components, css: options.css, lang: options.lang ?? "en-US", images }, data);
}

/** The body of the expanded document. */
function body(root: unknown, data: unknown = {}, options: Options = {}): string {
  const { html } = run(root, data, options);
  return html.slice(html.indexOf("<body>") + "<body>".length, html.lastIndexOf("</body>"));
}

/** The text of one text component bound to data. */
function textOf(text: unknown, data: unknown = {}, lang?: string): string {
  const b = body({ type: "text", text }, data, { lang });
  const m = /^<div class="f-text">([\s\S]*)<\/div>$/.exec(b);
  if (!m) throw new Error(`not one text component: ${b}`);
  return m[1]!;
}


const text = (t: unknown, extra: object = {}) => ({ type: "text", text: t, ...extra });
const bind = (...path: string[]) => ({ path });
const XSS = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>'];
const ESCAPED = ["&lt;script&gt;alert(1)&lt;/script&gt;", "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"];

describe("the document", () => {
  it("is one complete HTML document with the language, default CSS, then the caller's CSS in order", () => {
    const { html } = run(text("hi"), {}, { lang: "de-CH", css: ["p{color:red}", "p{color:blue}"] });
    expect(html.startsWith('<!doctype html><html lang="de-CH"><head><meta charset="utf-8"><style>')).toBe(true);
    expect(html.endsWith('</style></head><body><div class="f-text">hi</div></body></html>')).toBe(true);
    const css = html.slice(html.indexOf("<style>"), html.indexOf("</style>"));
    for (const rule of [
      ".f-text{white-space:pre-wrap}",
      ".f-repeat{display:flex;flex-direction:column}",
      ".f-table{width:100%;border-collapse:collapse}",
      ".f-table th,.f-table td{padding:6px;border:1px solid #d1d5db;text-align:left}",
      ".f-table th{font-weight:600;background:#f3f4f6}",
      ".f-table thead{display:table-header-group}",
      ".f-table tr{break-inside:avoid;page-break-inside:avoid}",
    ])
      expect(css).toContain(rule);
    expect(css.indexOf(".f-table tr")).toBeLessThan(css.indexOf("p{color:red}"));
    expect(css.indexOf("p{color:red}")).toBeLessThan(css.indexOf("p{color:blue}"));
  });

  it("keeps a stylesheet inside its style element", () => {
    const { html } = run(text("x"), {}, { css: ["a{}</style><script>alert(1)</script>", "b{}</STYLE >"] });
    expect(html.match(/<\/style/gi)).toHaveLength(1);
    expect(html).toContain("a{}<\\/style><script>alert(1)</script>\nb{}<\\/STYLE ></style>");
  });

  it("escapes the language attribute", () => {
    const { html } = expand({ root: Component.parse(text("x")), lang: 'en"><script>' }, {});
    expect(html).toContain('<html lang="en&quot;&gt;&lt;script&gt;">');
  });

  it("reports the components emitted and the deepest nesting", () => {
    const r = run({ type: "container", children: [text("a"), { type: "container", children: [text("b"), text("c")] }] });
    expect(r).toMatchObject({ components: 5, depth: 3 });
  });
});

describe("component types", () => {
  it("container: a div with style and className, children in order", () => {
    const b = body({ type: "container", className: "page wide", style: { padding: 4, display: "flex" }, children: [text("a"), text(1), text(true)] });
    expect(b).toBe('<div class="page wide" style="padding:4px;display:flex"><div class="f-text">a</div><div class="f-text">1</div><div class="f-text">true</div></div>');
  });

  it("text: keeps its own class next to className, and line breaks as text (pre-wrap)", () => {
    expect(body(text("line 1\nline 2", { className: "extra", style: { color: "red" } }))).toBe(
      '<div class="f-text extra" style="color:red">line 1\nline 2</div>',
    );
    expect(body(text("x", { className: "" }))).toBe('<div class="f-text">x</div>');
  });

  it("className: names cut to letters, digits, _ and -, one space apart; nothing else reaches the attribute", () => {
    expect(body(text("x", { className: "  brand\tlead  total-2 ünï_c0de " }))).toBe('<div class="f-text brand lead total-2 ünï_c0de">x</div>');
    expect(body(text("x", { className: 'a" onload="x() b.c #d' }))).toBe('<div class="f-text a onloadx bc d">x</div>');
    expect(body(text("x", { className: "<>\"' ." }))).toBe('<div class="f-text">x</div>');
    expect(body({ type: "container", className: "{}", children: [] })).toBe("<div></div>");
  });

  describe("repeat", () => {
    const repeat = { type: "repeat", source: bind("items"), children: [text(bind("name"))], empty: [text("none")] };

    it("is a flex column with one container per item; children read the item", () => {
      expect(body(repeat, { items: [{ name: "a" }, { name: "b" }] })).toBe(
        '<div class="f-repeat"><div><div class="f-text">a</div></div><div><div class="f-text">b</div></div></div>',
      );
    });

    it.each([
      ["an empty array", { items: [] }],
      ["a missing source", {}],
      ["a null source", { items: null }],
    ])("renders the empty components for %s", (_, data) => {
      expect(body(repeat, data)).toBe('<div class="f-repeat"><div class="f-text">none</div></div>');
    });

    it("without empty components an empty array leaves the repeat empty", () => {
      expect(body({ type: "repeat", source: bind("items"), children: [text("x")] }, { items: [] })).toBe('<div class="f-repeat"></div>');
    });

    it.each([
      ["a string", "abc"],
      ["a number", 3],
      ["an object", { 0: "a" }],
      ["a boolean", true],
    ])("refuses a source that is %s with 400 naming the path", (kind, items) => {
      const e = thrown(() => body({ type: "repeat", source: bind("order", "items"), children: [] }, { order: { items } }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.message).toBe(`The source at order.items is ${kind}, not an array`);
      expect(e.details).toEqual([{ path: "order.items", message: `is ${kind}, not an array` }]);
    });

    it("empty components read the repeat's own scope", () => {
      const r = { type: "repeat", source: bind("items"), children: [], empty: [text(bind("title"))] };
      expect(body(r, { title: "T", items: [] })).toBe('<div class="f-repeat"><div class="f-text">T</div></div>');
    });
  });

  describe("component", () => {
    const components = {
      address: { name: "Address", root: { type: "container", className: "addr", children: [text(bind("city")), text({ path: ["title"], scope: "root" })] } },
    };

    it("expands the reusable root inside a box of its own; data sets the current scope", () => {
      const root = { type: "component", componentId: "address", data: bind("customer", "address"), className: "box", style: { margin: 2 } };
      expect(body(root, { title: "Invoice", customer: { address: { city: "Bern" } } }, { components })).toBe(
        '<div class="box" style="margin:2px"><div class="addr"><div class="f-text">Bern</div><div class="f-text">Invoice</div></div></div>',
      );
    });

    it("without data reads the caller's current scope (here a repeat item)", () => {
      const root = { type: "repeat", source: bind("people"), children: [{ type: "component", componentId: "address" }] };
      expect(body(root, { title: "T", people: [{ city: "Basel" }] }, { components })).toContain('<div class="f-text">Basel</div><div class="f-text">T</div>');
    });

    it("data with scope root reads from the whole data inside a repeat", () => {
      const root = { type: "repeat", source: bind("rows"), children: [{ type: "component", componentId: "address", data: { path: ["home"], scope: "root" } }] };
      expect(body(root, { title: "T", home: { city: "Chur" }, rows: [{ home: { city: "wrong" } }] }, { components })).toContain(">Chur<");
    });

    it.each([
      ["missing", {}],
      ["null", { customer: { address: null } }],
    ])("fails with 400 when data points at a %s value", (kind, data) => {
      const root = { type: "component", componentId: "address", data: bind("customer", "address") };
      const e = thrown(() => body(root, data, { components }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.message).toBe("No data at customer.address for component address");
      expect(e.details?.[0]?.path).toBe("customer.address");
      expect(e.details?.[0]?.message).toContain(kind);
    });

    it("fails with 400 for an unknown componentId, also one named like an Object method", () => {
      for (const id of ["nope", "constructor", "toString"]) {
        const e = thrown(() => body({ type: "component", componentId: id }, {}, { components }));
        expect(e.code).toBe("BAD_REQUEST");
        expect(e.message).toContain(`Unknown component ${id}`);
      }
    });

    it("fails with 400 when a component uses itself directly", () => {
      const self = { loop: { name: "Loop", root: { type: "container", children: [{ type: "component", componentId: "loop" }] } } };
      const e = thrown(() => body({ type: "component", componentId: "loop" }, {}, { components: self }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.message).toBe("Component loop uses itself: loop -> loop");
    });

    it("fails with 400 when components use each other in a circle", () => {
      const circle = {
        a: { name: "A", root: { type: "component", componentId: "b" } },
        b: { name: "B", root: { type: "container", children: [{ type: "component", componentId: "c" }] } },
        c: { name: "C", root: { type: "component", componentId: "a" } },
      };
      const e = thrown(() => body({ type: "container", children: [{ type: "component", componentId: "a" }] }, {}, { components: circle }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.message).toBe("Component a uses itself: a -> b -> c -> a");
    });

    it("may use the same component several times, and components may use each other", () => {
      const parts = {
        line: { name: "Line", root: text(bind("v")) },
        pair: { name: "Pair", root: { type: "container", children: [{ type: "component", componentId: "line", data: bind("x") }, { type: "component", componentId: "line", data: bind("y") }] } },
      };
      const b = body({ type: "component", componentId: "pair" }, { x: { v: 1 }, y: { v: 2 } }, { components: parts });
      expect(b).toBe('<div><div><div><div class="f-text">1</div></div><div><div class="f-text">2</div></div></div></div>');
    });
  });

  describe("image", () => {
    const sha = "a".repeat(64);
    const images = { ast_logo: sha, ast_b: "b".repeat(64) };

    it("draws a resolved image from the asset origin by its blob name, sized in CSS pixels before its own style", () => {
      const r = run({ type: "image", assetId: "ast_logo", width: 120, height: 40.5, className: "logo", style: { marginLeft: 8 } }, {}, { images });
      expect(r.html).toContain(`<body><img class="f-image logo" src="http://assets.invalid/${sha}" alt="" style="width:120px;height:40.5px;margin-left:8px"></body>`);
      expect([...r.images]).toEqual(["ast_logo"]);
      expect(body({ type: "image", assetId: "ast_logo" }, {}, { images })).toBe(`<img class="f-image" src="http://assets.invalid/${sha}" alt="">`);
      expect(r.html).toContain(".f-image{display:block}");
    });

    it("refuses an image whose asset was not resolved with ASSET_INVALID naming the asset", () => {
      const e = thrown(() => body({ type: "image", assetId: "ast_other", width: 100 }, {}, { images }));
      expect(e.code).toBe("ASSET_INVALID");
      expect(e.status).toBe(400);
      expect(e.message).toContain("ast_other");
    });

    it("leaves a hidden image out without an error and without listing it", () => {
      const hidden = { type: "image", assetId: "ast_logo", visibleWhen: { path: ["showLogo"], operator: "truthy" } };
      const r = run({ type: "container", children: [hidden] }, { showLogo: false });
      expect(r.html).toContain("<body><div></div></body>");
      expect(r.images.size).toBe(0);
    });

    it("a binding may select an image the template names literally elsewhere (also in a reusable component)", () => {
      const components = { logos: { name: "Logos", root: { type: "image", assetId: "ast_b", visibleWhen: { path: ["never"], operator: "exists" } } } };
      const r = run({ type: "image", assetId: bind("logo") }, { logo: "ast_b" }, { components, images });
      expect(r.html).toContain(`src="http://assets.invalid/${"b".repeat(64)}"`);
      expect([...r.images]).toEqual(["ast_b"]);
    });

    it("a binding selecting an image not named literally fails with ASSET_INVALID naming the binding", () => {
      const root = { type: "container", children: [{ type: "image", assetId: "ast_logo", visibleWhen: { path: ["x"], operator: "exists" } }, { type: "image", assetId: bind("pick", "logo") }] };
      const e = thrown(() => body(root, { pick: { logo: "ast_other" } }, { images }));
      expect(e.code).toBe("ASSET_INVALID");
      expect(e.message).toContain("pick.logo");
      expect(e.message).toContain('"ast_other"');
      expect(e.details?.[0]?.path).toBe("pick.logo");
    });

    it("a binding with a missing value is a data error like any other", () => {
      const e = thrown(() => body({ type: "container", children: [{ type: "image", assetId: "ast_logo", visibleWhen: { path: ["x"], operator: "exists" } }, { type: "image", assetId: bind("logo") }] }, {}, { images }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.details?.[0]?.path).toBe("logo");
    });
  });
});

describe("table", () => {
  const columns = [
    { id: "item", header: "Item", value: bind("name"), width: 120 },
    { id: "qty", header: "Qty", value: bind("qty") },
  ];
  const rows = { rows: [{ name: "Pen", qty: 2 }, { name: "Ink", qty: 10 }] };

  it("has a colgroup with pixel widths, a header row and one row per item", () => {
    expect(body({ type: "table", source: bind("rows"), columns }, rows)).toBe(
      '<table class="f-table"><colgroup><col style="width:120px"><col></colgroup>' +
        "<thead><tr><th>Item</th><th>Qty</th></tr></thead>" +
        "<tbody><tr><td>Pen</td><td>2</td></tr><tr><td>Ink</td><td>10</td></tr></tbody></table>",
    );
  });

  it("leaves out the colgroup without widths and the header with showHeader false", () => {
    const noWidths = columns.map(({ width: _, ...c }) => c);
    expect(body({ type: "table", source: bind("rows"), columns: noWidths, showHeader: false }, rows)).toBe(
      '<table class="f-table"><tbody><tr><td>Pen</td><td>2</td></tr><tr><td>Ink</td><td>10</td></tr></tbody></table>',
    );
  });

  it.each([
    ["an empty array", { rows: [] }],
    ["a missing source", {}],
    ["a null source", { rows: null }],
  ])("shows emptyText in one row spanning all columns for %s", (_, data) => {
    const b = body({ type: "table", source: bind("rows"), columns, emptyText: "No items", cellStyle: { color: "gray" } }, data);
    expect(b).toContain('<tbody><tr><td colspan="2" style="color:gray">No items</td></tr></tbody>');
  });

  it("without emptyText an empty array leaves only the header row", () => {
    expect(body({ type: "table", source: bind("rows"), columns }, { rows: [] })).toContain("<thead><tr><th>Item</th><th>Qty</th></tr></thead><tbody></tbody></table>");
  });

  it("refuses a source that is not an array with 400 naming the path", () => {
    const e = thrown(() => body({ type: "table", source: bind("rows"), columns }, { rows: "Pen" }));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.details).toEqual([{ path: "rows", message: "is a string, not an array" }]);
  });

  it("applies cellStyle, then the column style, then headerStyle on header cells (later declarations win)", () => {
    const table = {
      type: "table",
      source: bind("rows"),
      cellStyle: { color: "red", padding: 2 },
      headerStyle: { color: "green" },
      columns: [
        { id: "a", header: "A", value: bind("name"), style: { color: "blue", textAlign: "right" } },
        { id: "b", header: "B", value: "-" },
      ],
      className: "lines",
      style: { fontSize: 9 },
    };
    expect(body(table, { rows: [{ name: "Pen" }] })).toBe(
      '<table class="f-table lines" style="font-size:9px">' +
        '<thead><tr><th style="color:red;padding:2px;color:blue;text-align:right;color:green">A</th><th style="color:red;padding:2px;color:green">B</th></tr></thead>' +
        '<tbody><tr><td style="color:red;padding:2px;color:blue;text-align:right">Pen</td><td style="color:red;padding:2px">-</td></tr></tbody></table>',
    );
  });

  it("column values may be literals, bindings with scope root, and mixed text", () => {
    const table = {
      type: "table",
      source: bind("rows"),
      columns: [
        { id: "lit", header: "", value: 7 },
        { id: "cur", header: "Cur", value: { path: ["currency"], scope: "root" } },
        { id: "mix", header: "Mix", value: { parts: ["#", bind("n"), " of ", { path: ["total"], scope: "root" }] } },
      ],
    };
    expect(body(table, { currency: "CHF", total: 2, rows: [{ n: 1 }, { n: 2 }] })).toContain(
      "<tbody><tr><td>7</td><td>CHF</td><td>#1 of 2</td></tr><tr><td>7</td><td>CHF</td><td>#2 of 2</td></tr></tbody>",
    );
  });
});

describe("visibleWhen", () => {
  const MISSING = Symbol("missing");
  type Case = [operator: string, value: string | number | boolean | undefined, data: unknown, shown: boolean];
  const cases: Case[] = [
    ["truthy", undefined, "a", true],
    ["truthy", undefined, 1, true],
    ["truthy", undefined, true, true],
    ["truthy", undefined, {}, true],
    ["truthy", undefined, [], true],
    ["truthy", undefined, "", false],
    ["truthy", undefined, 0, false],
    ["truthy", undefined, false, false],
    ["truthy", undefined, null, false],
    ["truthy", undefined, MISSING, false],
    ["falsy", undefined, "a", false],
    ["falsy", undefined, {}, false],
    ["falsy", undefined, "", true],
    ["falsy", undefined, 0, true],
    ["falsy", undefined, false, true],
    ["falsy", undefined, null, true],
    ["falsy", undefined, MISSING, true],
    ["exists", undefined, "", true],
    ["exists", undefined, 0, true],
    ["exists", undefined, false, true],
    ["exists", undefined, [], true],
    ["exists", undefined, null, false],
    ["exists", undefined, MISSING, false],
    ["notExists", undefined, "", false],
    ["notExists", undefined, 0, false],
    ["notExists", undefined, null, true],
    ["notExists", undefined, MISSING, true],
    ["equals", "1", "1", true],
    ["equals", "1", 1, false],
    ["equals", "1", "01", false],
    ["equals", 1, 1, true],
    ["equals", 1, "1", false],
    ["equals", 1, true, false],
    ["equals", true, true, true],
    ["equals", true, "true", false],
    ["equals", true, 1, false],
    ["equals", false, false, true],
    ["equals", 0, 0, true],
    ["equals", "", "", true],
    ["equals", "x", { x: "x" }, false],
    ["equals", "x", ["x"], false],
    ["equals", "x", null, false],
    ["equals", "x", MISSING, false],
    ["equals", undefined, "x", false],
    ["equals", undefined, MISSING, false],
    ["notEquals", "1", "1", false],
    ["notEquals", "1", 1, true],
    ["notEquals", 1, "1", true],
    ["notEquals", true, true, false],
    ["notEquals", "x", { x: "x" }, true],
    ["notEquals", "x", null, true],
    ["notEquals", "x", MISSING, true],
    ["notEquals", undefined, "x", false],
    ["notEquals", undefined, MISSING, false],
  ];

  it.each(cases)("%s %j with value %j -> shown %s", (operator, value, v, shown) => {
    const visibleWhen = { path: ["flags", "v"], operator, ...(value === undefined ? {} : { value }) };
    const data = { flags: v === MISSING ? {} : { v } };
    expect(body({ type: "container", children: [text("x", { visibleWhen })] }, data)).toBe(shown ? '<div><div class="f-text">x</div></div>' : "<div></div>");
  });

  it("never fails on a missing path, even through a non-object", () => {
    const visibleWhen = { path: ["a", "b", "c"], operator: "exists" };
    expect(body({ type: "container", children: [text("x", { visibleWhen })] }, { a: "str" })).toBe("<div></div>");
  });

  it("is evaluated before anything else: nothing inside a hidden component is expanded", () => {
    const hidden = {
      type: "container",
      visibleWhen: { path: ["show"], operator: "truthy" },
      children: [
        text(bind("missing", "value")),
        { type: "component", componentId: "unknown" },
        { type: "repeat", source: bind("notAnArray"), children: [] },
        { type: "repeat", source: bind("many"), children: [text("x")] },
      ],
    };
    const r = run({ type: "container", children: [hidden] }, { show: false, notAnArray: 5, many: Array(501).fill(1) });
    expect(r.components).toBe(1);
  });

  it("reads the component's scope: the repeat item, or the whole data with scope root", () => {
    const root = {
      type: "repeat",
      source: bind("items"),
      children: [
        text(bind("n"), { visibleWhen: { path: ["show"], operator: "truthy" } }),
        text("all", { visibleWhen: { path: ["showAll"], scope: "root", operator: "truthy" } }),
      ],
    };
    const b = body(root, { showAll: true, items: [{ n: 1, show: true }, { n: 2, show: false }] });
    expect(b).toBe('<div class="f-repeat"><div><div class="f-text">1</div><div class="f-text">all</div></div><div><div class="f-text">all</div></div></div>');
  });
});

describe("bindings and scopes", () => {
  it("scope current reads the repeat item; scope root the whole data, also in nested repeats", () => {
    const root = {
      type: "repeat",
      source: bind("groups"),
      children: [
        { type: "repeat", source: bind("items"), children: [text({ parts: [bind("name"), "/", { path: ["title"], scope: "root" }] })] },
        { type: "repeat", source: { path: ["shared"], scope: "root" }, children: [text(bind("s"))] },
      ],
    };
    const b = body(root, { title: "T", shared: [{ s: "S" }], groups: [{ items: [{ name: "a" }, { name: "b" }], title: "wrong" }] });
    expect(b.match(/<div class="f-text">[^<]*<\/div>/g)).toEqual([
      '<div class="f-text">a/T</div>',
      '<div class="f-text">b/T</div>',
      '<div class="f-text">S</div>',
    ]);
  });

  it("outside any repeat, current is the whole data", () => {
    expect(textOf(bind("a"), { a: "x" })).toBe("x");
  });

  it("addresses array items by a decimal index string only", () => {
    const data = { items: [{ name: "zero" }, { name: "one" }] };
    expect(textOf(bind("items", "1", "name"), data)).toBe("one");
    expect(textOf({ path: ["items", "01", "name"], fallback: "none" }, data)).toBe("none");
    expect(textOf({ path: ["items", "2", "name"], fallback: "none" }, data)).toBe("none");
    expect(textOf({ path: ["items", "length"], fallback: "none" }, data)).toBe("none");
  });

  it.each(["toString", "valueOf", "hasOwnProperty", "isPrototypeOf"])("never reads the inherited property %s", (name) => {
    expect(textOf({ path: ["o", name], fallback: "none" }, { o: {} })).toBe("none");
    expect(textOf({ path: ["s", name], fallback: "none" }, { s: "str" })).toBe("none");
  });

  it("reads an own property whatever its name", () => {
    expect(textOf(bind("o", "toString"), { o: { toString: "own" } })).toBe("own");
  });

  it("shows strings, numbers and booleans without a format as String(value)", () => {
    expect(textOf({ parts: [bind("s"), "|", bind("n"), "|", bind("f"), "|", bind("t"), "|", bind("z")] }, { s: "a b", n: 1234.5, f: false, t: true, z: 0 })).toBe("a b|1234.5|false|true|0");
  });

  it.each([
    ["missing", {}],
    ["null", { v: null }],
    ["an object", { v: { a: 1 } }],
    ["an array", { v: [1] }],
  ])("uses the fallback as written, with prefix and suffix but no format, when the value is %s", (_, data) => {
    const format = { type: "currency", currency: "EUR" };
    expect(textOf({ path: ["v"], fallback: 1234.5, format, prefix: "[", suffix: "]" }, data)).toBe("[1234.5]");
    expect(textOf({ path: ["v"], fallback: false }, data)).toBe("false");
    expect(textOf({ path: ["v"], fallback: "" , prefix: "<", suffix: ">" }, data)).toBe("&lt;&gt;");
  });

  it("puts prefix and suffix around a found value", () => {
    expect(textOf({ path: ["v"], prefix: "Total: ", suffix: " EUR" }, { v: 12 })).toBe("Total: 12 EUR");
  });

  it("fails with 400 naming the path when a value is missing and there is no fallback", () => {
    const e = thrown(() => textOf(bind("customer", "address", "city"), { customer: { address: {} } }));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.status).toBe(400);
    expect(e.message).toBe("Missing value at customer.address.city (no fallback)");
    expect(e.details).toEqual([{ path: "customer.address.city", message: "missing (no fallback)" }]);
  });

  it.each([
    ["null", null],
    ["an object", { a: 1 }],
    ["an array", []],
  ])("fails with 400 naming the path when the value is %s", (kind, v) => {
    const e = thrown(() => textOf({ parts: ["x", bind("items", "0", "v")] }, { items: [{ v }] }));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toBe(`Value at items.0.v is ${kind}, not a string, number or boolean (no fallback)`);
    expect(e.details).toEqual([{ path: "items.0.v", message: `is ${kind}, not a string, number or boolean (no fallback)` }]);
  });

  it("mixed text joins literal parts and bindings", () => {
    expect(textOf({ parts: ["Dear ", bind("name"), ", you owe ", 12.5, " ", true] }, { name: "Ann" })).toBe("Dear Ann, you owe 12.5 true");
  });
});

describe("formats in bindings", () => {
  it("formats the value; a value the format refuses names the binding's path", () => {
    expect(textOf({ path: ["total"], format: { type: "currency", currency: "EUR" }, suffix: " incl. VAT" }, { total: 12 }, "de-DE")).toBe("12,00\u00a0€ incl. VAT");
    const e = thrown(() => textOf({ path: ["order", "total"], format: { type: "number" } }, { order: { total: "12" } }));
    expect(e.details?.[0]?.path).toBe("order.total");
  });
});

describe("limits after expansion", () => {
  const texts = (n: number) => Array.from({ length: n }, () => text("x"));

  it("allows 10,000 components and refuses 10,001 with LIMIT_EXCEEDED", () => {
    const data = { items: Array(500).fill({}) };
    // 1 container + 1 repeat + 500 x 19 texts + extra texts
    const root = (extra: number) => ({ type: "container", children: [{ type: "repeat", source: bind("items"), children: texts(19) }, ...texts(extra)] });
    expect(run(root(498), data).components).toBe(10_000);
    const e = thrown(() => run(root(499), data));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.status).toBe(400);
    expect(e.message).toContain("10,000 components");
  });

  it("does not count repeat item containers or table rows", () => {
    const r = run({ type: "container", children: [
      { type: "repeat", source: bind("items"), children: [] },
      { type: "table", source: bind("items"), columns: [{ id: "a", header: "A", value: "x" }] },
    ] }, { items: Array(500).fill({}) });
    expect(r.components).toBe(3);
  });

  /** Containers nested `levels` deep around `leaf`. */
  const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { type: "container", children: [nest(levels - 1, leaf)] });
  // Each reusable tree stays within the save limit (50); used inside each other they add up.
  const components = {
    outer: { name: "Outer", root: nest(40, { type: "component", componentId: "inner" }) },
    inner: { name: "Inner", root: nest(40, text("deep")) },
  };

  it("allows nesting 100 deep and refuses 101, reusable component roots adding their depth", () => {
    // root containers (m) + outer component node (1) + 40 containers + inner node (1) + 40 containers + text (1)
    const root = (m: number) => nest(m, { type: "component", componentId: "outer" });
    expect(run(root(17), {}, { components }).depth).toBe(100);
    const e = thrown(() => run(root(18), {}, { components }));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toContain("deeper than 100");
  });

  it.each(["repeat", "table"])("allows 500 items in one %s source and refuses 501", (type) => {
    const node = type === "repeat" ? { type, source: bind("list", "items"), children: [] } : { type, source: bind("list", "items"), columns: [{ id: "a", header: "A", value: "x" }] };
    expect(() => run(node, { list: { items: Array(500).fill(1) } })).not.toThrow();
    const e = thrown(() => run(node, { list: { items: Array(501).fill(1) } }));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toBe("The source at list.items has 501 items; a repeat or table takes at most 500");
    expect(e.details?.[0]?.path).toBe("list.items");
  });

  it("refuses a body over 1,000,000 bytes, counting UTF-8 bytes", () => {
    expect(() => run(text(bind("s")), { s: "x".repeat(999_000) })).not.toThrow();
    expect(() => run(text(bind("s")), { s: "é".repeat(400_000) })).not.toThrow();
    for (const s of ["x".repeat(1_000_000), "é".repeat(600_000)]) {
      const e = thrown(() => run(text(bind("s")), { s }));
      expect(e.code).toBe("LIMIT_EXCEEDED");
      expect(e.message).toContain("1,000,000 bytes");
    }
  });

  it("stops a huge expansion early", () => {
    const columns = Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, header: "", value: "-" }));
    // 500 tables of 500 rows x 30 cells: some 70 MB if it ran to the end.
    const root = { type: "repeat", source: bind("items"), children: [{ type: "table", source: { path: ["items"], scope: "root" }, columns }] };
    const started = performance.now();
    const e = thrown(() => run(root, { items: Array(500).fill({}) }));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toContain("bytes");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses mixed text over 1,000,000 characters", () => {
    const e = thrown(() => run(text({ parts: [bind("s"), bind("s")] }), { s: "x".repeat(500_001) }));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toBe("Mixed text longer than 1,000,000 characters");
  });
});

describe("data and literals are always text", () => {
  const payloads = XSS.map((p, i) => [p, ESCAPED[i]!] as const);

  function expectEscaped(out: string, escaped: string) {
    expect(out).toContain(escaped);
    expect(out).not.toMatch(/<script|<img/i);
  }

  it.each(payloads)("escapes %s in data, literals, fallback, prefix and suffix", (payload, escaped) => {
    const root = {
      type: "container",
      children: [
        text(bind("v")),
        text(payload),
        text({ path: ["missing"], fallback: payload }),
        text({ path: ["n"], prefix: payload, suffix: payload }),
        text({ parts: [payload, bind("v")] }),
        { type: "repeat", source: bind("list"), children: [text(bind("0"))] },
      ],
    };
    const out = body(root, { v: payload, n: 1, list: [[payload]] });
    expectEscaped(out, escaped);
    expect(out.split(escaped).length - 1).toBe(8);
  });

  it.each(payloads)("escapes %s in table header, cells and emptyText, and cuts it out of className", (payload, escaped) => {
    const table = { type: "table", className: payload, source: bind("rows"), emptyText: payload, columns: [{ id: "a", header: payload, value: bind("v") }] };
    const empty = body(table, { rows: [] });
    expectEscaped(empty, escaped);
    expect(empty).toMatch(new RegExp(`^<table class="f-table[ a-z0-9=-]*"><thead><tr><th>${escaped.replace(/[()]/g, "\\$&")}</th></tr></thead><tbody><tr><td colspan="1">`));
    expectEscaped(body(table, { rows: [{ v: payload }] }), escaped);
    expect(body(text("x", { className: payload }))).toMatch(/^<div class="f-text[ a-z0-9]*">x<\/div>$/);
  });

  it("escapes quotes in style values for the attribute", () => {
    expect(body(text("x", { style: { fontFamily: "\"Helvetica Neue\", 'Arial', sans-serif" } }))).toBe(
      '<div class="f-text" style="font-family:&quot;Helvetica Neue&quot;, &#39;Arial&#39;, sans-serif">x</div>',
    );
  });

  it("escapes & < > in plain data", () => {
    expect(textOf(bind("v"), { v: "Fish & Chips <b>" })).toBe("Fish &amp; Chips &lt;b&gt;");
  });
});

describe("literalOnly (node documents)", () => {
  function node(doc: unknown) {
    const d = NodeDocument.parse(doc);
    return expand({ root: d.root, components: d.components, css: d.stylesheets, lang: "en-US", literalOnly: true } satisfies ExpandInput, {});
  }

  it("expands literal values", () => {
    const { html } = node({ root: { type: "container", children: [text("a"), text({ parts: ["b", 1] }), { type: "table", source: bind("rows"), columns: [{ id: "a", header: "A", value: "x" }], emptyText: "none" }] } });
    expect(html).toContain('<div class="f-text">a</div><div class="f-text">b1</div>');
    expect(html).toContain(">none</td>");
  });

  it.each([
    [{ root: text(bind("a")) }, "nodeDocument.root.text"],
    [{ root: { type: "container", children: [text("ok"), text({ parts: ["x", bind("a")] })] } }, "nodeDocument.root.children.1.text.parts.1"],
    [{ root: { type: "table", source: bind("r"), columns: [{ id: "a", header: "", value: "x" }, { id: "b", header: "", value: bind("b") }] } }, "nodeDocument.root.columns.1.value"],
    [{ root: { type: "image", assetId: bind("logo") } }, "nodeDocument.root.assetId"],
    [{ root: text("x"), components: { card: { name: "Card", root: text(bind("a")) } } }, "nodeDocument.components.card.root.text"],
    [{ root: { type: "container", children: [text(bind("a"), { visibleWhen: { path: ["never"], operator: "exists" } })] } }, "nodeDocument.root.children.0.text"],
    [{ root: { type: "repeat", source: bind("r"), children: [], empty: [text({ path: ["a"], fallback: "f" })] } }, "nodeDocument.root.empty.0.text"],
  ])("refuses a binding anywhere with 400 naming where: %#", (doc, path) => {
    const e = thrown(() => node(doc));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.details?.[0]?.path).toBe(path);
    expect(e.message).toBe(`${path}: a node document takes only literal values, not bindings`);
  });
});

describe("performance", () => {
  it("expands a 500-row, 6-column table with formats in well under 50 ms", () => {
    const table = Component.parse({
      type: "table",
      source: bind("rows"),
      columns: [
        { id: "name", header: "Name", value: bind("name"), width: 200 },
        { id: "qty", header: "Qty", value: { path: ["qty"], format: { type: "number" } } },
        { id: "price", header: "Price", value: { path: ["price"], format: { type: "currency", currency: "CHF", locale: "de-CH" } } },
        { id: "total", header: "Total", value: { path: ["total"], format: { type: "currency", currency: "EUR" } } },
        { id: "vat", header: "VAT", value: { path: ["vat"], format: { type: "percent" } } },
        { id: "date", header: "Date", value: { path: ["date"], format: { type: "date" } } },
      ],
      cellStyle: { fontSize: 10 },
    } satisfies ComponentNode);
    const rows = Array.from({ length: 500 }, (_, i) => ({ name: `Item ${i} <x>`, qty: i, price: i * 1.25, total: i * 12.5, vat: 0.077, date: "2024-03-05" }));
    expand({ root: table, lang: "fr-FR" }, { rows }); // warm up
    const started = performance.now();
    const { html } = expand({ root: table, lang: "fr-FR" }, { rows });
    const ms = performance.now() - started;
    expect(html.match(/<tr>/g)).toHaveLength(501);
    expect(ms).toBeLessThan(1000); // loose: this runs beside the integration tests, Chromium and PostgreSQL
  });
});

describe("every data error at once", () => {
  it("lists each missing or mistyped value, one detail per data path from the data's root, in document order", () => {
    const root = {
      type: "container",
      children: [
        text(bind("customer", "name")),
        text({ path: ["total"], format: { type: "currency", currency: "EUR" } }),
        { type: "table", source: bind("lines"), columns: [{ id: "a", header: "A", value: { path: ["amount"], format: { type: "number" } } }] },
        { type: "repeat", source: bind("notes"), children: [] },
        { type: "component", componentId: "address", data: bind("customer", "address") },
        { type: "repeat", source: bind("lines"), children: [text({ path: ["sku"], scope: "root" })] },
      ],
    };
    const components = { address: { name: "Address", root: text(bind("city")) } };
    const e = thrown(() => body(root, { total: "12", lines: [{ amount: 1 }, { amount: "x" }, {}], notes: "none", customer: {} }, { components }));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.details).toEqual([
      { path: "customer.name", message: "missing (no fallback)" },
      { path: "total", message: "is a string, but format currency needs a JSON number (a numeric string is not a number)" },
      { path: "lines.1.amount", message: "is a string, but format number needs a JSON number (a numeric string is not a number)" },
      { path: "lines.2.amount", message: "missing (no fallback)" },
      { path: "notes", message: "is a string, not an array" },
      { path: "customer.address", message: "component address reads its data from here, but the value is missing" },
      // A root-scoped binding inside a repeat names its own path, once however many items read it.
      { path: "sku", message: "missing (no fallback)" },
    ]);
    expect(e.message).toBe(
      "7 values of the data are missing or unusable: Missing value at customer.name (no fallback); " +
        "Value at total is a string, but format currency needs a JSON number (a numeric string is not a number); " +
        "Value at lines.1.amount is a string, but format number needs a JSON number (a numeric string is not a number); " +
        "Missing value at lines.2.amount (no fallback); The source at notes is a string, not an array; " +
        "No data at customer.address for component address; Missing value at sku (no fallback)",
    );
  });

  it("names rows inside a reusable component by their place in the data", () => {
    const components = { row: { name: "Row", root: text(bind("name")) } };
    const root = { type: "repeat", source: bind("order", "items"), children: [{ type: "component", componentId: "row", data: bind("product") }] };
    const e = thrown(() => body(root, { order: { items: [{ product: { name: "a" } }, { product: {} }] } }, { components }));
    expect(e.message).toBe("Missing value at order.items.1.product.name (no fallback)");
    expect(e.details).toEqual([{ path: "order.items.1.product.name", message: "missing (no fallback)" }]);
  });

  it("stops at 100: the first 100 paths in details, the message says there are more and spells out 10", () => {
    const root = { type: "table", source: bind("rows"), columns: [{ id: "v", header: "V", value: bind("v") }] };
    const e = thrown(() => body(root, { rows: Array(150).fill({}) }));
    expect(e.details).toHaveLength(100);
    expect(e.details?.[99]).toEqual({ path: "rows.99.v", message: "missing (no fallback)" });
    expect(e.message).toMatch(/^More than 100 values of the data are missing or unusable; the first 100 are in details: Missing value at rows\.0\.v/);
    expect(e.message).toContain("Missing value at rows.9.v (no fallback); and 90 more in details");
    expect(e.message).not.toContain("rows.10.v");
  });

  it("exactly 100 errors are all listed without 'more than'", () => {
    const root = { type: "table", source: bind("rows"), columns: [{ id: "v", header: "V", value: bind("v") }] };
    const e = thrown(() => body(root, { rows: Array(100).fill({}) }));
    expect(e.details).toHaveLength(100);
    expect(e.message).toMatch(/^100 values of the data are missing or unusable: /);
  });

  it("limits still stop the expansion at once", () => {
    const e = thrown(() => body({ type: "container", children: [text(bind("a")), { type: "repeat", source: bind("rows"), children: [] }] }, { rows: Array(501).fill(1) }));
    expect(e.code).toBe("LIMIT_EXCEEDED");
  });
});
