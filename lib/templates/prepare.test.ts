import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { pdfInfo, pdfText } from "@/lib/testing/pdf";
import { download, waitForState } from "@/lib/testing/renders";
import { threeBadValuesContent, threeBadValuesData } from "../testing/bad-data";

// Documents prepared from component templates and rendered for real: published versions, draft
// previews, node documents and the Reports API, on the shared server and worker, checked in the
// PDF's text (poppler).

type Json = Record<string, unknown>;
type Detail = { path?: string; message: string };
type RenderRecord = {
  id: string;
  state: string;
  source: string;
  templateId?: string;
  templateVersionId?: string;
  result?: { downloadUrl?: string; pageCount: number };
  error?: { code: string; diagnostic: string; message: string };
};
type Rendered = { render: RenderRecord; bytes: Uint8Array; pages: string[]; text: string; drawn: string };

/** pdftotext may give U+00A0 and U+202F as spaces, and -layout pads columns: compare with single spaces. */
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The text of an HTML answer: tags dropped, the five escapes undone, whitespace normalised. */
const htmlText = (html: string) => norm(html.replace(/<style>[^<]*<\/style>/g, " ").replace(/<[^>]+>/g, " ").replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!));

/** How often `needle` occurs in `haystack`. */
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

/** Creates a template, publishes its first revision and returns both ids. */
async function publishTemplate(key: string, content: Json, name = "Template"): Promise<{ templateId: string; versionId: string }> {
  const created = await api("/v1/templates", { key, body: { name, content } });
  expect(created.status, created.text).toBe(201);
  const published = await api(`/v1/templates/${created.body.id}/versions`, { key, body: { expectedRevision: 1 } });
  expect(published.status, published.text).toBe(201);
  return { templateId: created.body.id as string, versionId: published.body.id as string };
}

/** The normalised text of each page of a PDF. */
function pagesOf(bytes: Uint8Array): string[] {
  const n = Number(pdfInfo(bytes).Pages);
  return Array.from({ length: n }, (_, i) => norm(pdfText(bytes, i + 1)));
}

function readPdf(bytes: Uint8Array) {
  const pages = pagesOf(bytes);
  return { bytes, pages, text: pages.join(" "), drawn: compact(pdfText(bytes, undefined, { raw: true })) };
}

/**
 * Text without any whitespace, for comparing lines that mix fonts: poppler's layout guess splits a
 * line where CJK glyphs (Noto CJK, taller) meet Latin ones, and its drawing order drops narrow spaces.
 */
const compact = (s: string) => s.replace(/\s+/g, "");

/** POST /v1/renders, waits for the render to succeed and returns it with its PDF's text per page. */
async function renderPdf(key: string, body: Json): Promise<Rendered> {
  const res = await api<RenderRecord>("/v1/renders", { key, body: { waitMs: 20_000, ...body } });
  expect([200, 202], res.text).toContain(res.status);
  const render = (res.status === 200 ? res.body : await waitForState(key, res.body.id, undefined, { timeout: 40_000 })) as RenderRecord;
  expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
  const file = await download(render.result!.downloadUrl!);
  expect(file.status).toBe(200);
  return { render, ...readPdf(file.bytes) };
}

const renderVersion = (key: string, templateVersionId: string, data: Json) => renderPdf(key, { templateVersionId, data });

/** POST /v1/reports/render answered with the file itself (bytes, not text). */
async function report(key: string, body: Json) {
  const res = await fetch(`${inject("baseUrl")}/v1/reports/render`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function reportPdf(key: string, body: Json) {
  const res = await report(key, { format: "pdf", ...body });
  expect(res.status, Buffer.from(res.bytes).toString("utf8", 0, 500)).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return readPdf(res.bytes);
}

// --- formats ------------------------------------------------------------------------------------

const FORMAT_DATA = { n: 1234567.891, m: 1234.567, p: 0.256, d: "2026-03-05", ts: "2026-03-05T23:30:00Z" };
const LOCALES = ["en-US", "de-CH", "fr-FR", "ja-JP"] as const;

type FormatCase = { name: string; path: string; format: Json; intl: (locale: string) => string };
const formatCases: FormatCase[] = [
  {
    name: "number",
    path: "n",
    format: { type: "number", maximumFractionDigits: 2 },
    intl: (l) => new Intl.NumberFormat(l, { maximumFractionDigits: 2 }).format(FORMAT_DATA.n),
  },
  ...["EUR", "CHF", "JPY"].map((currency) => ({
    name: currency.toLowerCase(),
    path: "m",
    format: { type: "currency", currency },
    intl: (l: string) => new Intl.NumberFormat(l, { style: "currency", currency }).format(FORMAT_DATA.m),
  })),
  { name: "percent", path: "p", format: { type: "percent" }, intl: (l) => new Intl.NumberFormat(l, { style: "percent" }).format(FORMAT_DATA.p) },
  {
    name: "date",
    path: "d",
    format: { type: "date", dateStyle: "long" },
    intl: (l) => new Intl.DateTimeFormat(l, { dateStyle: "long", timeZone: "UTC" }).format(new Date(FORMAT_DATA.d)),
  },
  {
    name: "tokyo",
    path: "ts",
    format: { type: "date", dateStyle: "long", timeZone: "Asia/Tokyo" },
    intl: (l) => new Intl.DateTimeFormat(l, { dateStyle: "long", timeZone: "Asia/Tokyo" }).format(new Date(FORMAT_DATA.ts)),
  },
];

/** One line per format: `[label] value ;` where label is auto-<case> (no locale) or <locale>-<case>. */
const formatLine = (label: string, path: string, format: Json) => ({ type: "text", text: { parts: [`[${label}] `, { path: [path], format }, " ;"] } });
const expectedLine = (label: string, value: string) => norm(`[${label}] ${value} ;`);

const formatsContent = {
  composition: {
    root: {
      type: "container",
      children: [
        ...formatCases.map((c) => formatLine(`auto-${c.name}`, c.path, c.format)),
        ...LOCALES.flatMap((l) => formatCases.map((c) => formatLine(`${l}-${c.name}`, c.path, { ...c.format, locale: l }))),
      ],
    },
  },
  settings: { locale: "de-CH" },
};


/** Every format line (compared without whitespace): auto-* in `autoLocale`, the others in their own format.locale. */
function expectFormats(drawn: string, autoLocale: string) {
  for (const c of formatCases) expect(drawn).toContain(compact(expectedLine(`auto-${c.name}`, c.intl(autoLocale))));
  for (const l of LOCALES) for (const c of formatCases) expect(drawn).toContain(compact(expectedLine(`${l}-${c.name}`, c.intl(l))));
}

describe("formats and the render language", () => {
  it("formats number, currency, percent and date per locale; the language comes from the source of the render", async () => {
    const w = await createTestWorkspace();
    const name = "Formats";
    const { templateId, versionId } = await publishTemplate(w.key, formatsContent, name);
    const [version, previewFr, previewNoLocale, reportJa, reportNoLocale, htmlJa] = await Promise.all([
      // POST /v1/renders with a version: always the page-settings locale (de-CH).
      renderVersion(w.key, versionId, FORMAT_DATA),
      // A preview body that sends a locale renders in it; without one, in the page settings.
      renderPdf(w.key, { preview: { templateId, data: FORMAT_DATA, locale: "fr-FR" } }),
      renderPdf(w.key, { preview: { templateId, data: FORMAT_DATA } }),
      // The Reports API: the request's locale, en-US when omitted even though the settings say de-CH.
      reportPdf(w.key, { template: { name }, data: FORMAT_DATA, locale: "ja-JP" }),
      reportPdf(w.key, { template: { name }, data: FORMAT_DATA }),
      report(w.key, { format: "html", template: { name }, data: FORMAT_DATA, locale: "ja-JP" }),
    ]);
    expect(version.render).toMatchObject({ source: "templateVersion", templateId, templateVersionId: versionId });
    expect(previewFr.render).toMatchObject({ source: "preview", templateId });
    expectFormats(version.drawn, "de-CH");
    expectFormats(previewFr.drawn, "fr-FR");
    expectFormats(previewNoLocale.drawn, "de-CH");
    expectFormats(reportJa.drawn, "ja-JP");
    expectFormats(reportNoLocale.drawn, "en-US");
    // The expanded HTML holds every value exactly as Intl formats it, the yen sign included.
    expect(htmlJa.status).toBe(200);
    expectFormats(compact(htmlText(Buffer.from(htmlJa.bytes).toString("utf8"))), "ja-JP");
    expect(Buffer.from(htmlJa.bytes).toString("utf8")).toContain("[ja-JP-jpy] \uFFE51,235 ;");

    // A few literals, checked by hand (ICU of this Node), so the Intl oracle above is not the only judge.
    const t = version.text;
    expect(t).toContain("[en-US-number] 1,234,567.89 ;");
    expect(t).toContain("[en-US-eur] €1,234.57 ;");
    expect(t).toContain("[en-US-jpy] ¥1,235 ;");
    expect(t).toContain("[en-US-percent] 26% ;");
    expect(t).toContain("[en-US-date] March 5, 2026 ;");
    expect(t).toContain("[en-US-tokyo] March 6, 2026 ;"); // 23:30 UTC is the next day in Tokyo
    expect(t).toContain("[de-CH-chf] CHF 1'234.57 ;");
    expect(t).toContain("[de-CH-tokyo] 6. März 2026 ;");
    expect(t).toContain("[fr-FR-number] 1 234 567,89 ;");
    expect(t).toContain("[fr-FR-eur] 1 234,57 € ;");
    expect(t).toContain("[fr-FR-percent] 26 % ;");
    expect(t).toContain("[fr-FR-tokyo] 6 mars 2026 ;");
    expect(t).toContain("[ja-JP-number] 1,234,567.89 ;");
    expect(t).toContain("[auto-chf] CHF 1'234.57 ;");
    expect(previewFr.text).toContain("[auto-eur] 1 234,57 € ;");
    expect(reportNoLocale.text).toContain("[auto-date] March 5, 2026 ;");
  });
});

// --- conditions ---------------------------------------------------------------------------------

const CONDITION_DATA = { yes: true, no: false, zero: 0, one: 1, empty: "", str: "x", nul: null, obj: { a: 1 }, arr: [1] };
const KEYS = [...Object.keys(CONDITION_DATA), "missing"];

/** Which keys each value-less operator shows (spec: Conditions). */
const SHOWN: Record<string, string[]> = {
  truthy: ["yes", "one", "str", "obj", "arr"],
  falsy: ["no", "zero", "empty", "nul", "missing"],
  exists: ["yes", "no", "zero", "one", "empty", "str", "obj", "arr"],
  notExists: ["nul", "missing"],
};

/** equals / notEquals: [key, value (undefined: none), shown]. */
const COMPARISONS: [string, "equals" | "notEquals", string, string | number | boolean | undefined, boolean][] = [
  ["eq1", "equals", "str", "x", true],
  ["eq2", "equals", "str", "y", false],
  ["eq3", "equals", "one", 1, true],
  ["eq4", "equals", "one", "1", false], // same content, other type
  ["eq5", "equals", "yes", true, true],
  ["eq6", "equals", "yes", 1, false],
  ["eq7", "equals", "no", false, true],
  ["eq8", "equals", "empty", "", true],
  ["eq9", "equals", "empty", 0, false],
  ["eq10", "equals", "missing", "x", false],
  ["eq11", "equals", "nul", "x", false],
  ["eq12", "equals", "str", undefined, false], // without a value: hidden
  ["ne1", "notEquals", "str", "x", false],
  ["ne2", "notEquals", "str", "y", true],
  ["ne3", "notEquals", "one", "1", true],
  ["ne4", "notEquals", "one", 1, false],
  ["ne5", "notEquals", "missing", "x", true],
  ["ne6", "notEquals", "nul", "x", true],
  ["ne7", "notEquals", "str", undefined, false], // without a value: hidden
  ["ne8", "notEquals", "missing", undefined, false],
];

describe("conditions", () => {
  it("shows each component exactly when its condition holds, for all six operators, present, missing and null values", async () => {
    const w = await createTestWorkspace();
    const texts = [
      ...Object.keys(SHOWN).flatMap((op) => KEYS.map((k) => ({ type: "text", text: `<${op}:${k}>`, visibleWhen: { path: [k], operator: op } }))),
      ...COMPARISONS.map(([label, op, k, value]) => ({
        type: "text",
        text: `<${label}>`,
        visibleWhen: { path: [k], operator: op, ...(value === undefined ? {} : { value }) },
      })),
      // A missing path deep below a non-object never fails a condition.
      { type: "text", text: "<deep-missing>", visibleWhen: { path: ["str", "a", "b"], operator: "notExists" } },
      // A hidden component is not expanded: its missing binding does not fail the render.
      { type: "container", visibleWhen: { path: ["missing"], operator: "exists" }, children: [{ type: "text", text: { path: ["not", "there"] } }] },
      // scope root inside a repeat reads the whole data.
      {
        type: "repeat",
        source: { path: ["arr"] },
        children: [{ type: "text", text: "<root-scope>", visibleWhen: { path: ["str"], scope: "root", operator: "equals", value: "x" } }],
      },
    ];
    const { versionId } = await publishTemplate(w.key, { composition: { root: { type: "container", children: texts } } });
    const { text } = await renderVersion(w.key, versionId, CONDITION_DATA);
    const seen: Record<string, boolean> = {};
    const want: Record<string, boolean> = {};
    for (const op of Object.keys(SHOWN)) {
      for (const k of KEYS) {
        seen[`${op}:${k}`] = text.includes(`<${op}:${k}>`);
        want[`${op}:${k}`] = SHOWN[op]!.includes(k);
      }
    }
    for (const [label, , , , shown] of COMPARISONS) {
      seen[label] = text.includes(`<${label}>`);
      want[label] = shown;
    }
    expect(seen).toEqual(want);
    expect(text).toContain("<deep-missing>");
    expect(count(text, "<root-scope>")).toBe(1);
  });
});

// --- errors the request itself answers -----------------------------------------------------------

const textOf = (path: string[], extra: Json = {}) => ({ composition: { root: { type: "text", text: { path, ...extra } } } });

describe("errors that expansion finds answer the request (400) and create no render", () => {
  it("names the path of every missing or mistyped value, and refuses components, sources and limits", async () => {
    const w = await createTestWorkspace();
    const [city, amount, price, when, repeat, table, unknownComponent, circular, selfUse, componentData, mixed, rowBinding] = await Promise.all([
      publishTemplate(w.key, textOf(["customer", "address", "city"])),
      publishTemplate(w.key, textOf(["amount"], { format: { type: "number" } })),
      publishTemplate(w.key, textOf(["price"], { format: { type: "currency", currency: "EUR" } })),
      publishTemplate(w.key, textOf(["when"], { format: { type: "date" } })),
      publishTemplate(w.key, { composition: { root: { type: "repeat", source: { path: ["items"] }, children: [{ type: "text", text: "item" }] } } }),
      publishTemplate(w.key, {
        composition: { root: { type: "table", source: { path: ["rows"] }, columns: [{ id: "v", header: "V", value: { path: ["v"], fallback: "-" } }] } },
      }),
      publishTemplate(w.key, { composition: { root: { type: "component", componentId: "nope" } } }),
      publishTemplate(w.key, {
        composition: {
          root: { type: "component", componentId: "a" },
          components: {
            a: { name: "A", root: { type: "container", children: [{ type: "component", componentId: "b" }] } },
            b: { name: "B", root: { type: "container", children: [{ type: "component", componentId: "a" }] } },
          },
        },
      }),
      publishTemplate(w.key, {
        composition: { root: { type: "component", componentId: "me" }, components: { me: { name: "Me", root: { type: "component", componentId: "me" } } } },
      }),
      publishTemplate(w.key, {
        composition: {
          root: { type: "component", componentId: "addr", data: { path: ["customer", "billing"] } },
          components: { addr: { name: "Address", root: { type: "text", text: "address" } } },
        },
      }),
      publishTemplate(w.key, { composition: { root: { type: "text", text: { parts: [{ path: ["big"] }, " and ", { path: ["big"] }] } } } }),
      publishTemplate(w.key, {
        composition: { root: { type: "table", source: { path: ["rows"] }, columns: [{ id: "amount", header: "Amount", value: { path: ["amount"] } }] } },
      }),
    ]);

    const post = (body: Json, key = w.key) => api("/v1/renders", { key, body });
    const bad = async (versionId: string, data: Json, code = "BAD_REQUEST") => expectError(await post({ templateVersionId: versionId, data }), 400, code);
    const paths = (e: { details?: unknown[] }) => ((e.details ?? []) as Detail[]).map((d) => d.path);

    // Missing, null and non-plain values without fallback.
    let e = await bad(city.versionId, { customer: { address: { street: "Main" } } });
    expect(paths(e)[0]).toBe("customer.address.city");
    expect(e.message).toContain("customer.address.city");
    expect(paths(await bad(city.versionId, { customer: { address: { city: null } } }))[0]).toBe("customer.address.city");
    expect(paths(await bad(city.versionId, { customer: { address: { city: { name: "Bern" } } } }))[0]).toBe("customer.address.city");
    expect(paths(await bad(city.versionId, { customer: "Acme" }))[0]).toBe("customer.address.city");
    expect(paths(await bad(city.versionId, {}))[0]).toBe("customer.address.city");
    // Wrong types for formats: a string or boolean for a number, a numeric string for a currency, a bad date.
    expect(paths(await bad(amount.versionId, { amount: "many" }))[0]).toBe("amount");
    expect(paths(await bad(amount.versionId, { amount: true }))[0]).toBe("amount");
    e = await bad(price.versionId, { price: "12.50" });
    expect(paths(e)[0]).toBe("price");
    expect(paths(await bad(when.versionId, { when: "yesterday" }))[0]).toBe("when");
    expect(paths(await bad(when.versionId, { when: true }))[0]).toBe("when");
    // Sources that are not arrays.
    expect(paths(await bad(repeat.versionId, { items: "abc" }))[0]).toBe("items");
    expect(paths(await bad(repeat.versionId, { items: { a: 1 } }))[0]).toBe("items");
    expect(paths(await bad(table.versionId, { rows: 5 }))[0]).toBe("rows");
    // A missing value in the second row names the binding's path.
    expect(paths(await bad(rowBinding.versionId, { rows: [{ amount: 1 }, {}] }))[0]).toMatch(/(^|\.)amount$/);
    // Reusable components: unknown, circular (indirect and direct), data pointing at nothing.
    e = await bad(unknownComponent.versionId, {});
    expect(e.message).toContain("nope");
    await bad(circular.versionId, {});
    await bad(selfUse.versionId, {});
    expect(paths(await bad(componentData.versionId, { customer: {} }))[0]).toBe("customer.billing");
    expect(paths(await bad(componentData.versionId, { customer: { billing: null } }))[0]).toBe("customer.billing");
    // Render limits: 501 items in one source, mixed text over 1,000,000 characters.
    await bad(table.versionId, { rows: Array.from({ length: 501 }, () => ({ v: "x" })) }, "LIMIT_EXCEEDED");
    await bad(repeat.versionId, { items: Array.from({ length: 501 }, (_, i) => i) }, "LIMIT_EXCEEDED");
    await bad(mixed.versionId, { big: "x".repeat(500_001) }, "LIMIT_EXCEEDED");

    // Stylesheet paths that name no workspace file: publishing refuses with ASSET_INVALID naming each.
    const styled = await api("/v1/templates", { key: w.key, body: { name: "Styled", content: { composition: { root: { type: "text", text: "x" }, stylesheets: ["base.css", "print.css"] } } } });
    e = expectError(await api(`/v1/templates/${styled.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } }), 400, "ASSET_INVALID");
    expect(paths(e)).toEqual(["composition.stylesheets.0", "composition.stylesheets.1"]);

    // The same checks on a draft preview.
    e = expectError(await post({ preview: { templateId: city.templateId, data: { customer: {} } } }), 400, "BAD_REQUEST");
    expect(paths(e)[0]).toBe("customer.address.city");

    // Request shape: a binding in a node document, two sources, data without a version.
    e = expectError(
      await post({ nodeDocument: { root: { type: "container", children: [{ type: "text", text: { path: ["x"] } }] } } }),
      400,
      "BAD_REQUEST",
    );
    expect(paths(e)[0]).toBe("nodeDocument.root.children.0.text");
    e = expectError(await post({ nodeDocument: { root: { type: "text", text: { parts: ["a", { path: ["x"] }] } } } }), 400, "BAD_REQUEST");
    expect(paths(e)[0]).toBe("nodeDocument.root.text.parts.1");
    e = expectError(await post({ document: { html: "<p>x</p>" }, templateVersionId: city.versionId }), 400, "BAD_REQUEST");
    expect(paths(e)).toContain("templateVersionId");
    e = expectError(await post({ document: { html: "<p>x</p>" }, data: { a: 1 } }), 400, "BAD_REQUEST");
    expect(paths(e)).toContain("data");
    e = expectError(await post({ preview: { templateId: city.templateId }, data: { a: 1 } }), 400, "BAD_REQUEST");
    expect(paths(e)).toContain("data");

    // Unknown ids and other workspaces' ids: 404.
    expectError(await post({ templateVersionId: "tv_doesnotexist", data: {} }), 404, "NOT_FOUND");
    const other = await createTestWorkspace();
    const foreign = await publishTemplate(other.key, textOf(["x"]));
    expectError(await post({ templateVersionId: foreign.versionId, data: { x: "y" } }), 404, "NOT_FOUND");
    expectError(await post({ preview: { templateId: foreign.templateId, data: { x: "y" } } }), 404, "NOT_FOUND");

    // A preview body needs template:read as well as render:create.
    const noRead = await w.newKey(["render:create", "render:read"]);
    e = expectError(await post({ preview: { templateId: city.templateId, data: { customer: { address: { city: "Bern" } } } } }, noRead.secret), 403, "FORBIDDEN");
    expect(e.message).toContain("template:read");

    // None of these requests created a render.
    const list = await api("/v1/renders?limit=100", { key: w.key });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
  });
});

// --- data is text --------------------------------------------------------------------------------

const XSS = {
  a: "<script>document.title='pwned'</script>",
  b: '"><img src=x onerror=alert(1)>',
  c: "<b>bold</b>",
};

describe("data values are escaped text", () => {
  it("shows script, attribute and markup values literally in text, cells, mixed text, fallback, header and footer", async () => {
    const w = await createTestWorkspace();
    const content = {
      composition: {
        header: "<div>H1 {{a}} H2 {{b}} H3 {{c}}</div>",
        footer: "<div>F1 {{c}}</div>",
        root: {
          type: "container",
          children: [
            { type: "text", text: { path: ["a"], prefix: "T1 " } },
            { type: "text", text: { path: ["b"], prefix: "T2 " } },
            { type: "text", text: { path: ["c"], prefix: "T3 " } },
            {
              type: "table",
              source: { path: ["rows"] },
              columns: [{ id: "v", header: "<i>head</i>", value: { parts: ["C ", { path: ["v"] }] } }],
            },
            { type: "text", text: { parts: ["M1 ", { path: ["a"] }, " M2 ", { path: ["b"] }, " M3 ", { path: ["c"] }] } },
            { type: "text", text: { path: ["absent"], fallback: XSS.a, prefix: "FB " } },
          ],
        },
      },
      settings: { margins: { topMm: 20, bottomMm: 20 } },
    };
    const name = "Escaping";
    const { versionId } = await publishTemplate(w.key, content, name);
    const data = { ...XSS, rows: [{ v: XSS.a }, { v: XSS.b }, { v: XSS.c }] };
    const { bytes, text } = await renderVersion(w.key, versionId, data);
    for (const line of [
      `H1 ${XSS.a} H2 ${XSS.b} H3 ${XSS.c}`,
      `F1 ${XSS.c}`,
      `T1 ${XSS.a}`,
      `T2 ${XSS.b}`,
      `T3 ${XSS.c}`,
      "<i>head</i>",
      `C ${XSS.a}`,
      `C ${XSS.b}`,
      `C ${XSS.c}`,
      `M1 ${XSS.a} M2 ${XSS.b} M3 ${XSS.c}`,
      `FB ${XSS.a}`,
    ]) {
      expect(text).toContain(line);
    }
    // The script never ran: the title stayed empty.
    expect(pdfInfo(bytes).Title ?? "").not.toContain("pwned");

    // The HTML answer of the Reports API carries the values escaped.
    const res = await report(w.key, { format: "html", template: { name }, data });
    expect(res.status).toBe(200);
    const html = Buffer.from(res.bytes).toString("utf8");
    expect(html).toContain("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
  });

  it("keeps a data value that looks like a page-number placeholder as text in the header", async () => {
    const w = await createTestWorkspace();
    const { versionId } = await publishTemplate(w.key, {
      composition: { header: "<div>Ref {{ref}} / page {{pageNumber}}</div>", root: { type: "text", text: "body" } },
      settings: { margins: { topMm: 20 } },
    });
    const { text } = await renderVersion(w.key, versionId, { ref: "{{totalPages}}" });
    expect(text).toContain("Ref {{totalPages}} / page 1");
  });
});

// --- repeat and table ----------------------------------------------------------------------------

describe("repeat and table", () => {
  it("renders one item per array entry in order, empty content, emptyText and showHeader false", async () => {
    const w = await createTestWorkspace();
    const columns = [
      { id: "name", header: "ItemName", value: { parts: ["T-", { path: ["name"] }] } },
      { id: "qty", header: "Quantity", value: { path: ["qty"], prefix: "q" } },
    ];
    const content = {
      composition: {
        root: {
          type: "container",
          children: [
            {
              type: "repeat",
              source: { path: ["items"] },
              children: [{ type: "text", text: { parts: ["R-", { path: ["name"] }, " of ", { path: ["title"], scope: "root" }] } }],
            },
            { type: "repeat", source: { path: ["none"] }, children: [{ type: "text", text: "never shown" }], empty: [{ type: "text", text: "Repeat is empty" }] },
            { type: "repeat", source: { path: ["absent"] }, children: [{ type: "text", text: "never shown" }], empty: [{ type: "text", text: "Missing source is empty" }] },
            { type: "table", source: { path: ["items"] }, columns },
            { type: "table", source: { path: ["none"] }, columns: [{ id: "x", header: "EmptyHead", value: "x" }], emptyText: "Nothing to bill" },
            { type: "table", source: { path: ["none"] }, columns: [{ id: "x", header: "LonelyHead", value: "x" }] },
            { type: "table", source: { path: ["items"] }, showHeader: false, columns: [{ id: "x", header: "HiddenHead", value: { parts: ["NH-", { path: ["name"] }] } }] },
          ],
        },
      },
    };
    const { versionId } = await publishTemplate(w.key, content);
    const items = [
      { name: "alpha", qty: 1 },
      { name: "beta", qty: 2 },
      { name: "gamma", qty: 3 },
    ];
    const { text } = await renderVersion(w.key, versionId, { title: "Doc", items, none: [] });
    const order = (prefix: string) => items.map((i) => text.indexOf(`${prefix}${i.name}`));
    for (const prefix of ["R-", "T-", "NH-"]) {
      const at = order(prefix);
      expect(at.every((i) => i >= 0), `${prefix} rows in ${text}`).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      for (const i of items) expect(count(text, `${prefix}${i.name}`)).toBe(1);
    }
    expect(text).toContain("R-alpha of Doc");
    expect(text).toContain("T-beta q2");
    expect(text).toContain("Repeat is empty");
    expect(text).toContain("Missing source is empty");
    expect(text).not.toContain("never shown");
    expect(text).toContain("EmptyHead Nothing to bill");
    expect(text).toContain("LonelyHead");
    expect(text).toContain("ItemName Quantity");
    expect(text).not.toContain("HiddenHead");
  });
});

// --- node documents -----------------------------------------------------------------------------

describe("nodeDocument", () => {
  it("renders literal components, reusable components and stylesheets", async () => {
    const w = await createTestWorkspace();
    const { render, text } = await renderPdf(w.key, {
      nodeDocument: {
        root: {
          type: "container",
          children: [
            { type: "text", text: "Node literal text" },
            { type: "text", text: "Hidden by stylesheet", className: "gone" },
            { type: "text", text: "Marked", className: "marked" },
            { type: "text", text: { parts: ["Mixed ", 42, " ", true] } },
            { type: "component", componentId: "sig" },
            { type: "table", source: { path: ["rows"] }, columns: [{ id: "a", header: "NodeHead", value: "cell" }], emptyText: "No node rows" },
          ],
        },
        components: { sig: { name: "Signature", root: { type: "text", text: "Signed literally" } } },
        stylesheets: [".gone{display:none}", ".marked::before{content:'BEFORE-'}"],
      },
    });
    expect(render.source).toBe("nodeDocument");
    expect(text).toContain("Node literal text");
    expect(text).not.toContain("Hidden by stylesheet");
    expect(text).toContain("BEFORE-Marked");
    expect(text).toContain("Mixed 42 true");
    expect(text).toContain("Signed literally");
    expect(text).toContain("NodeHead No node rows");
  });
});

// --- a realistic invoice ------------------------------------------------------------------------

// why 22 items of six lines: a page break then falls inside a row (measured: without the table's
// break-inside rule Chromium splits item 13 across the pages, which the checks below catch).
const ITEMS = 22;
const amountOf = (i: number) => 100 + i + i / 100; // unique per item: 117.17 for item 17
const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);

const invoiceContent = {
  composition: {
    header: "<div style='font-size:9px'>ACME Corp · Invoice {{invoice.number}} · {{customer.name}}</div>",
    footer: "<div style='font-size:9px;text-align:right'>Page {{pageNumber}} of {{totalPages}}</div>",
    root: {
      type: "container",
      style: { fontFamily: "sans-serif", fontSize: 11 },
      children: [
        { type: "text", text: { parts: ["Invoice ", { path: ["invoice", "number"] }] }, style: { fontSize: 20, fontWeight: 700, marginBottom: 8 } },
        { type: "text", text: { parts: ["Issued ", { path: ["invoice", "date"], format: { type: "date", dateStyle: "long" } }] } },
        { type: "text", text: { path: ["customer", "name"], prefix: "Bill to: " }, style: { marginBottom: 12 } },
        {
          type: "table",
          source: { path: ["items"] },
          cellStyle: { fontSize: 9, lineHeight: 1.2, padding: "3px 6px" },
          headerStyle: { background: "#e5e7eb" },
          columns: [
            { id: "description", header: "Line description", value: { path: ["description"] }, style: { whiteSpace: "pre-wrap" } },
            { id: "qty", header: "Quantity", value: { path: ["qty"] }, width: 80 },
            { id: "amount", header: "Line amount", value: { path: ["amount"], format: { type: "currency", currency: "USD" } }, width: 120, style: { textAlign: "right" } },
          ],
        },
        { type: "component", componentId: "totals", data: { path: ["totals"] }, style: { marginTop: 12 } },
      ],
    },
    components: {
      totals: {
        name: "Totals",
        root: {
          type: "container",
          children: [
            { type: "text", text: { path: ["subtotal"], prefix: "Subtotal: ", format: { type: "currency", currency: "USD" } } },
            { type: "text", text: { path: ["tax"], prefix: "Tax: ", format: { type: "currency", currency: "USD" } } },
            { type: "text", text: { path: ["total"], prefix: "Total due: ", format: { type: "currency", currency: "USD" } }, style: { fontWeight: 700 } },
          ],
        },
      },
    },
  },
  settings: { locale: "en-US", margins: { topMm: 20, bottomMm: 18, leftMm: 15, rightMm: 15 }, title: "Invoice INV-2026-0042" },
};

describe("an invoice end to end", () => {
  it("repeats the header and table head on both pages, numbers the pages and never splits a row", async () => {
    const w = await createTestWorkspace();
    const { versionId } = await publishTemplate(w.key, invoiceContent, "Invoice");
    const items = Array.from({ length: ITEMS }, (_, k) => {
      const i = k + 1;
      return { description: `Item ${i} consulting\nanalysis\non-site workshop\ntravel\nreporting\ndetail line ${i}`, qty: i, amount: amountOf(i) };
    });
    const subtotal = items.reduce((s, i) => s + i.amount, 0);
    const data = {
      invoice: { number: "INV-2026-0042", date: "2026-03-05" },
      customer: { name: "Globex <GmbH>" },
      items,
      totals: { subtotal, tax: subtotal * 0.081, total: subtotal * 1.081 },
    };
    const { bytes, pages } = await renderVersion(w.key, versionId, data);
    expect(pages.length, pages.join("\n\n---\n\n")).toBe(2);
    expect(pdfInfo(bytes).Title).toBe("Invoice INV-2026-0042");

    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of 2`);
      expect(page).toContain("ACME Corp · Invoice INV-2026-0042 · Globex <GmbH>");
      expect(page).toContain("Line description Quantity Line amount"); // the table head on every page
    });
    expect(pages[0]).toContain("Issued March 5, 2026");
    expect(pages[1]).not.toContain("Issued");

    const itemRe = (i: number) => new RegExp(`\\bItem ${i} consulting\\b`, "g");
    const detailRe = (i: number) => new RegExp(`\\bdetail line ${i}\\b`, "g");
    const onPages = (re: RegExp) => pages.map((p) => (p.match(re) ?? []).length);
    const pageOfItem: number[] = [];
    for (let i = 1; i <= ITEMS; i++) {
      const item = onPages(itemRe(i));
      expect(item.reduce((a, b) => a + b), `item ${i} appears once`).toBe(1);
      const page = item.indexOf(1);
      // The whole row on one page: the first and last lines of its description, and its amount.
      expect(onPages(detailRe(i)), `detail of item ${i}`).toEqual(item);
      expect(pages[page], `amount of item ${i}`).toContain(usd(amountOf(i)));
      pageOfItem.push(page);
    }
    // Rows in order, and both pages hold some.
    expect([...pageOfItem].sort()).toEqual(pageOfItem);
    expect(pageOfItem).toContain(0);
    expect(pageOfItem).toContain(1);
    // Totals come from the reusable component reading data.totals.
    expect(pages[1]).toContain(`Subtotal: ${usd(subtotal)}`);
    expect(pages[1]).toContain(`Tax: ${usd(subtotal * 0.081)}`);
    expect(pages[1]).toContain(`Total due: ${usd(subtotal * 1.081)}`);
  });
});

describe("data errors of a published version's render", () => {
  it("lists every missing or mistyped value at once, one detail per path, and creates no render", async () => {
    const w = await createTestWorkspace();
    const { versionId } = await publishTemplate(w.key, threeBadValuesContent);
    const res = await api("/v1/renders", { key: w.key, body: { templateVersionId: versionId, data: threeBadValuesData } });
    const e = expectError(res, 400, "BAD_REQUEST");
    expect(e.details).toEqual([
      { path: "customer.name", message: "missing (no fallback)" },
      { path: "total", message: expect.stringContaining("needs a JSON number") },
      { path: "lines.1.amount", message: expect.stringContaining("needs a JSON number") },
    ]);
    expect(e.message).toBe(
      "3 values of the data are missing or unusable: Missing value at customer.name (no fallback); " +
        "Value at total is a string, but format currency needs a JSON number (a numeric string is not a number); " +
        "Value at lines.1.amount is a string, but format number needs a JSON number (a numeric string is not a number)",
    );
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);
  });
});
