/**
 * Component template expansion (spec: Resources > Component template): a validated composition plus
 * caller data becomes one complete HTML document for Chromium to print. Nothing in a composition
 * runs, and data is only ever inserted as escaped text, so data can never produce markup,
 * attributes or CSS. The "render" limits of spec Limits > Components are enforced here, as the
 * expansion goes, so an oversized expansion stops early.
 */
import { assetUrl } from "../documents/asset-refs";
import { AppError, invalidValue, limitExceeded } from "../errors";
import { joinCss, toCss } from "./css";
import { badValue, DataErrors, DataValueError, quote } from "./data-errors";
import { formatValue } from "./formats";
import type { Binding, ComponentNode, Condition, DataSource, ReusableComponent, Style, Value } from "./schema";

export type ExpandInput = {
  root: ComponentNode;
  components?: Record<string, ReusableComponent>;
  /** Stylesheet CSS texts already resolved by the caller, applied in order after the defaults. */
  css?: string[];
  /**
   * The images the template may draw: asset ID -> the name the page loads it by
   * (`http://assets.invalid/<name>`, the blob's sha256). Resolved before expansion
   * (resources.ts), which refuses a literal ID that names no ready image.
   */
  images?: ReadonlyMap<string, string>;
  /** Asset IDs a binding may select besides those image components name literally: the content fields' images. */
  selectable?: ReadonlySet<string>;
  /** The render language: the default locale of formats, and `<html lang>`. */
  lang: string;
  /** Node documents: a binding in any value (text, mixed part, column value, image assetId) answers 400. */
  literalOnly?: boolean;
};

/**
 * The document, the components emitted, the deepest nesting reached (the root is depth 1), and
 * the asset IDs of the images it draws (only those need to reach the render).
 */
export type Expanded = { html: string; components: number; depth: number; images: ReadonlySet<string> };

// spec: Limits > Components, the ones checked at render.
const MAX_COMPONENTS = 10_000;
const MAX_DEPTH = 100;
const MAX_ITEMS = 500;
const MAX_BODY_BYTES = 1_000_000;
const MAX_MIXED_CHARS = 1_000_000;

const DEFAULT_CSS =
  "body{margin:0}" +
  ".f-text{white-space:pre-wrap}" +
  ".f-repeat{display:flex;flex-direction:column}" +
  ".f-table{width:100%;border-collapse:collapse}" +
  ".f-table th,.f-table td{padding:6px;border:1px solid #d1d5db;text-align:left}" +
  ".f-table th{font-weight:600;background:#f3f4f6}" +
  ".f-table thead{display:table-header-group}" +
  ".f-table tr{break-inside:avoid;page-break-inside:avoid}" +
  ".f-image{display:block}";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe both as element content and inside a double- or single-quoted attribute. */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * The class attribute: Folio's own class, then the component's className cut to class-name
 * characters (letters, digits, _ and -), one space between names; nothing else reaches the page.
 */
function classAttribute(ownClass: string | undefined, className: string | undefined): string {
  const names = className ? className.split(/\s+/).map((c) => c.replace(/[^\p{L}\p{N}_-]/gu, "")).filter(Boolean) : [];
  if (ownClass) names.unshift(ownClass);
  return names.length ? ` class="${escapeHtml(names.join(" "))}"` : "";
}

/** CSS declarations as a style attribute (escaped: values may hold quotes). */
function styleAttribute(css: string): string {
  return css ? ` style="${escapeHtml(css)}"` : "";
}

/**
 * Expands a composition with `data` into one HTML document. Throws AppError: BAD_REQUEST for
 * missing or mistyped values (all of them, up to MAX_DATA_ERRORS: details name each data path
 * from the root of the data), an unknown or circular component, a binding where literalOnly
 * forbids one; ASSET_INVALID for images; LIMIT_EXCEEDED past the render limits.
 */
export function expand(input: ExpandInput, data: unknown): Expanded {
  if (input.literalOnly) refuseBindings(input);
  const expansion = new Expansion(input, data);
  expansion.node(input.root, data, [], 1);
  expansion.errors.throwIfAny();
  const css = [DEFAULT_CSS, ...(input.css ?? []).map(keepInsideStyle)].join("\n");
  const html =
    `<!doctype html><html lang="${escapeHtml(input.lang)}"><head><meta charset="utf-8"><style>${css}</style></head>` +
    `<body>${expansion.body()}</body></html>`;
  return { html, components: expansion.components, depth: expansion.depth, images: expansion.images };
}

/**
 * why: `</style` is the only thing that ends a style element; written as `<\/style` it means the
 * same inside a CSS string and nothing elsewhere, so a stylesheet cannot start markup.
 */
function keepInsideStyle(css: string): string {
  return css.replace(/<\/(style)/gi, "<\\/$1");
}

type Styled = { style?: Style; className?: string };

/** A data path as the caller sees it: the absolute segments below the data's root, dot-joined. */
type At = readonly string[];
const joinPath = (at: At, path: readonly string[]) => [...at, ...path].join(".");

/** One expansion: the output so far, the counters the limits need, the reusable components in use. */
class Expansion {
  components = 0;
  depth = 0;
  /** Missing and mistyped values: expansion goes on past them, so one answer lists them all. */
  readonly errors = new DataErrors();
  /** Asset IDs of the images drawn. */
  readonly images = new Set<string>();
  private readonly out: string[] = [];
  private bytes = 0;
  /** Reusable component ids on the expansion stack, outermost first. */
  private readonly using: string[] = [];
  private literalAssets?: Set<string>;

  constructor(
    private readonly input: ExpandInput,
    private readonly data: unknown,
  ) {}

  body(): string {
    return this.out.join("");
  }

  /**
   * Expands one component read with `scope` as its current data, found at `at` in the data;
   * `depth` counts from the root (1).
   */
  node(n: ComponentNode, scope: unknown, at: At, depth: number): void {
    // spec: a hidden component is not expanded at all, so missing data inside it never fails.
    if (n.visibleWhen && !isVisible(n.visibleWhen, this.base(n.visibleWhen, scope))) return;
    if (depth > MAX_DEPTH) throw limitExceeded(`Components nest deeper than ${MAX_DEPTH} levels after expansion`);
    if (++this.components > MAX_COMPONENTS) throw limitExceeded(`More than ${MAX_COMPONENTS.toLocaleString("en-US")} components after expansion`);
    if (depth > this.depth) this.depth = depth;
    switch (n.type) {
      case "container":
        this.open("div", n);
        for (const child of n.children) this.node(child, scope, at, depth + 1);
        this.emit("</div>");
        return;
      case "text":
        this.open("div", n, "f-text");
        this.emit(escapeHtml(this.value(n.text, scope, at)));
        this.emit("</div>");
        return;
      case "image":
        return this.image(n, scope, at);
      case "repeat": {
        const { items, itemsAt } = this.items(n.source, scope, at);
        this.open("div", n, "f-repeat");
        if (items.length === 0) for (const child of n.empty ?? []) this.node(child, scope, at, depth + 1);
        items.forEach((item, i) => {
          this.emit("<div>");
          for (const child of n.children) this.node(child, item, [...itemsAt, String(i)], depth + 1);
          this.emit("</div>");
        });
        this.emit("</div>");
        return;
      }
      case "table":
        return this.table(n, scope, at);
      case "component":
        return this.component(n, scope, at, depth);
    }
  }

  private component(n: Extract<ComponentNode, { type: "component" }>, scope: unknown, at: At, depth: number) {
    const id = n.componentId;
    const components = this.input.components ?? {};
    const reusable = Object.hasOwn(components, id) ? components[id] : undefined;
    if (!reusable) throw new AppError("BAD_REQUEST", `Unknown component ${id}: the composition has no reusable component with that key`);
    const cycle = this.using.indexOf(id);
    if (cycle >= 0) throw new AppError("BAD_REQUEST", `Component ${id} uses itself: ${[...this.using.slice(cycle), id].join(" -> ")}`);
    let inner = scope;
    let innerAt = at;
    if (n.data) {
      inner = resolvePath(this.base(n.data, scope), n.data.path);
      innerAt = [...this.baseAt(n.data, at), ...n.data.path];
      if (inner === undefined || inner === null) {
        const path = innerAt.join(".");
        const message = `component ${id} reads its data from here, but the value is ${inner === null ? "null" : "missing"}`;
        // why: nothing inside can be drawn without its data; its own bindings would only repeat this.
        return this.errors.add(new DataValueError(path, message, `No data at ${path} for component ${id}`));
      }
    }
    // why: the component node is a box of its own (its style and className apply to it); the
    // reusable root sits one level below, so its whole depth adds to the caller's.
    this.open("div", n);
    this.using.push(id);
    this.node(reusable.root, inner, innerAt, depth + 1);
    this.using.pop();
    this.emit("</div>");
  }

  private table(n: Extract<ComponentNode, { type: "table" }>, scope: unknown, at: At) {
    const { items: rows, itemsAt } = this.items(n.source, scope, at);
    // Cell styles are the same on every row: build them once. Concatenated declarations keep
    // CSS's own "later wins" rule, shorthands included (spec: cellStyle first, headerStyle last).
    const cellCss = n.cellStyle ? toCss(n.cellStyle) : "";
    const columns = n.columns.map((c) => {
      const td = joinCss(cellCss, c.style ? toCss(c.style) : "");
      return { column: c, td: styleAttribute(td), th: styleAttribute(joinCss(td, n.headerStyle ? toCss(n.headerStyle) : "")) };
    });
    this.open("table", n, "f-table");
    if (n.columns.some((c) => c.width !== undefined)) {
      this.emit(`<colgroup>${n.columns.map((c) => (c.width === undefined ? "<col>" : `<col style="width:${c.width}px">`)).join("")}</colgroup>`);
    }
    if (n.showHeader !== false) {
      this.emit(`<thead><tr>${columns.map((c) => `<th${c.th}>${escapeHtml(c.column.header)}</th>`).join("")}</tr></thead>`);
    }
    this.emit("<tbody>");
    if (rows.length === 0 && n.emptyText !== undefined) {
      this.emit(`<tr><td colspan="${columns.length}"${styleAttribute(cellCss)}>${escapeHtml(n.emptyText)}</td></tr>`);
    }
    rows.forEach((row, i) => {
      const rowAt = [...itemsAt, String(i)];
      const cells = ["<tr>"];
      for (const c of columns) cells.push(`<td${c.td}>`, escapeHtml(this.value(c.column.value, row, rowAt)), "</td>");
      cells.push("</tr>");
      this.emit(cells.join(""));
    });
    this.emit("</tbody></table>");
  }

  /**
   * An image: a literal asset ID, or a binding that selects one of the IDs the template names
   * literally (spec: image). Width and height go into the style attribute before the component's
   * own style, so an explicit size beats the stylesheets and `style` still has the last word.
   */
  private image(n: Extract<ComponentNode, { type: "image" }>, scope: unknown, at: At): void {
    let id = n.assetId;
    if (typeof id !== "string") {
      const path = joinPath(this.baseAt(id, at), id.path);
      id = this.binding(id, scope, at);
      if (id === "") return; // a data error, reported with the others
      // spec: a binding can only select an image the template also names literally elsewhere
      // (or, issue 25, that one of its image content fields holds).
      if (!this.namedAssets().has(id)) {
        const message = `selects image ${quote(id)}, which no image component or image content field of the template names`;
        throw new AppError("ASSET_INVALID", `The image binding at ${path} ${message}`, { details: [{ path, message }] });
      }
    }
    const name = this.input.images?.get(id);
    if (name === undefined) throw new AppError("ASSET_INVALID", `Image ${id} is not a ready image asset of this workspace`);
    this.images.add(id);
    const size = joinCss(n.width === undefined ? "" : `width:${n.width}px`, n.height === undefined ? "" : `height:${n.height}px`);
    const css = joinCss(size, n.style ? toCss(n.style) : "");
    this.emit(`<img${classAttribute("f-image", n.className)} src="${escapeHtml(assetUrl(name))}" alt=""${styleAttribute(css)}>`);
  }

  private namedAssets(): Set<string> {
    if (!this.literalAssets) {
      const ids = new Set<string>(this.input.selectable);
      forEachComponent(this.input, (n) => {
        if (n.type === "image" && typeof n.assetId === "string") ids.add(n.assetId);
      });
      this.literalAssets = ids;
    }
    return this.literalAssets;
  }

  /**
   * The items of a repeat or table source and where they are in the data: missing or null is
   * empty; anything else not an array is a data error (reported, and drawn as empty).
   */
  private items(source: DataSource, scope: unknown, at: At): { items: readonly unknown[]; itemsAt: At } {
    const value = resolvePath(this.base(source, scope), source.path);
    const itemsAt = [...this.baseAt(source, at), ...source.path];
    const path = itemsAt.join(".");
    if (value === undefined || value === null) return { items: [], itemsAt };
    if (!Array.isArray(value)) {
      const message = `is ${describe(value)}, not an array`;
      this.errors.add(new DataValueError(path, message, `The source at ${path} ${message}`));
      return { items: [], itemsAt };
    }
    if (value.length > MAX_ITEMS) {
      const message = `has ${value.length} items; a repeat or table takes at most ${MAX_ITEMS}`;
      throw limitExceeded(`The source at ${path} ${message}`, { details: [{ path, message }] });
    }
    return { items: value, itemsAt };
  }

  private value(v: Value, scope: unknown, at: At): string {
    if (typeof v !== "object") return String(v);
    if (!("parts" in v)) return this.binding(v, scope, at);
    let text = "";
    for (const part of v.parts) {
      text += typeof part === "object" ? this.binding(part, scope, at) : String(part);
      if (text.length > MAX_MIXED_CHARS) throw limitExceeded(`Mixed text longer than ${MAX_MIXED_CHARS.toLocaleString("en-US")} characters`);
    }
    return text;
  }

  /** The binding's text; a missing or mistyped value is reported and gives "" so expansion goes on. */
  private binding(b: Binding, scope: unknown, at: At): string {
    const v = resolvePath(this.base(b, scope), b.path);
    const path = joinPath(this.baseAt(b, at), b.path);
    let text: string;
    try {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
        text = formatValue(v, b.format, this.input.lang, path);
      } else if (b.fallback !== undefined) {
        text = String(b.fallback); // spec: shown as written, without format
      } else if (v === undefined) {
        throw new DataValueError(path, "missing (no fallback)", `Missing value at ${path} (no fallback)`);
      } else {
        throw badValue(path, `is ${describe(v)}, not a string, number or boolean (no fallback)`);
      }
    } catch (e) {
      if (!(e instanceof DataValueError)) throw e;
      this.errors.add(e);
      return "";
    }
    return (b.prefix ?? "") + text + (b.suffix ?? "");
  }

  /** Where a binding, condition or data source starts reading: the whole data or the current scope. */
  private base(ref: { scope?: "current" | "root" }, scope: unknown): unknown {
    return ref.scope === "root" ? this.data : scope;
  }

  /** Where that start is in the data: the root, or the current scope's path. */
  private baseAt(ref: { scope?: "current" | "root" }, at: At): At {
    return ref.scope === "root" ? [] : at;
  }

  private open(tag: string, n: Styled, ownClass?: string) {
    this.emit(`<${tag}${classAttribute(ownClass, n.className)}${n.style ? styleAttribute(toCss(n.style)) : ""}>`);
  }

  private emit(s: string) {
    this.bytes += Buffer.byteLength(s);
    if (this.bytes > MAX_BODY_BYTES) throw limitExceeded(`The expanded document is larger than ${MAX_BODY_BYTES.toLocaleString("en-US")} bytes`);
    this.out.push(s);
  }
}

/**
 * Reads `path` below `base`: each segment an own property, array items only by a decimal index.
 * Inherited properties (toString, an array's methods) are never read. Missing gives undefined.
 */
function resolvePath(base: unknown, path: readonly string[]): unknown {
  let v = base;
  for (const segment of path) {
    if (v === null || typeof v !== "object") return undefined;
    if (Array.isArray(v) && !/^(?:0|[1-9][0-9]*)$/.test(segment)) return undefined;
    if (!Object.hasOwn(v, segment)) return undefined;
    v = (v as Record<string, unknown>)[segment];
  }
  return v;
}

/** spec: Conditions. A missing path is a value like any other here: it never fails. */
function isVisible(c: Condition, base: unknown): boolean {
  const v = resolvePath(base, c.path);
  const present = v !== undefined && v !== null;
  const truthy = present && v !== false && v !== 0 && v !== "";
  // equals: same type and content; objects and arrays are never equal to a plain value.
  const equal = c.value !== undefined && typeof v === typeof c.value && v === c.value;
  switch (c.operator) {
    case "truthy":
      return truthy;
    case "falsy":
      return !truthy;
    case "exists":
      return present;
    case "notExists":
      return !present;
    case "equals":
      return equal;
    case "notEquals":
      return c.value !== undefined && !equal; // spec: without a value, both hide the component
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Calls `visit` for every component of the composition (root and reusable), with its JSON path. */
export function forEachComponent(input: Pick<ExpandInput, "root" | "components">, visit: (n: ComponentNode, at: string) => void) {
  const stack: { n: ComponentNode; at: string }[] = Object.entries(input.components ?? {})
    .map(([key, r]) => ({ n: r.root, at: `components.${key}.root` }))
    .reverse();
  stack.push({ n: input.root, at: "root" });
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { n, at } = item;
    visit(n, at);
    // why: pushed last to first, so components are visited in document order (errors list them so).
    if (n.type === "repeat") n.empty?.map((c, i) => ({ n: c, at: `${at}.empty.${i}` })).reverse().forEach((x) => stack.push(x));
    if (n.type === "container" || n.type === "repeat") n.children.map((c, i) => ({ n: c, at: `${at}.children.${i}` })).reverse().forEach((x) => stack.push(x));
  }
}

/**
 * decisions.md: a node document takes only literal values; a binding anywhere answers 400, also in
 * components that would be hidden or never used. Paths are those of the render request body.
 */
function refuseBindings(input: ExpandInput) {
  const refuse = (at: string) => invalidValue(`nodeDocument.${at}`, "a node document takes only literal values, not bindings");
  const check = (v: Value, at: string) => {
    if (typeof v !== "object") return;
    if (!("parts" in v)) throw refuse(at);
    v.parts.forEach((p, i) => {
      if (typeof p === "object") throw refuse(`${at}.parts.${i}`);
    });
  };
  forEachComponent(input, (n, at) => {
    if (n.type === "text") check(n.text, `${at}.text`);
    if (n.type === "table") n.columns.forEach((c, i) => check(c.value, `${at}.columns.${i}.value`));
    if (n.type === "image" && typeof n.assetId !== "string") throw refuse(`${at}.assetId`);
  });
}
