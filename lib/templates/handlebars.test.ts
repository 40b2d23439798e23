import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { imageSize, pdfImages, pdfInfo, pdfText } from "@/lib/testing/pdf";
import { download, waitForState } from "@/lib/testing/renders";
import { deleteAsset, editStylesheet, seedAsset, seedStylesheet, solidPng } from "@/lib/testing/template-files";

// Handlebars templates end to end on the shared server and worker: created, saved, published and
// rendered (by version, preview in three formats, batch item, Reports API) with partials,
// helpers.js (arguments, hash, a block helper), a beforeRender script, translations, a header and
// footer with page numbers, a workspace stylesheet and an image asset; and the save limits of the
// spec at their bounds.

type Json = Record<string, unknown>;
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

const HELPERS = `
function money(value, options) {
  return options.hash.currency + " " + Number(value).toFixed(2);
}
function shout(options) {
  return options.fn(this).toUpperCase();
}
`;

const SCRIPT = `
function beforeRender(data) {
  console.log("lines", data.lines.length);
  return { ...data, total: data.lines.reduce((n, l) => n + l.amount, 0), count: data.lines.length };
}
`;

const DATA = { number: "INV-7", lines: [{ description: "Consulting", amount: 1200 }, { description: "Travel", amount: 34.5 }] };

function content(assetId: string): Json {
  return {
    templateHtml:
      `<!doctype html><html><head><meta charset="utf-8"></head><body>` +
      `<h1>{{localization.title}} {{number}}</h1>` +
      `<img src="http://assets.invalid/${assetId}" style="width:40px;height:40px">` +
      `{{#each lines}}{{> line}}{{/each}}` +
      `<p>{{#shout}}total {{money total currency="EUR"}}{{/shout}}</p><p>Items {{count}}</p></body></html>`,
    partials: { line: `<div class="line">{{description}}: {{money amount currency="EUR"}}</div>` },
    helpers: HELPERS,
    scripts: [{ name: "totals", source: SCRIPT }],
    header: `<div style="font-size:10px">{{localization.title}} header</div>`,
    footer: `<div style="font-size:10px">Page {{pageNumber}} of {{totalPages}}</div>`,
    stylesheets: ["hbs.css"],
    settings: { margins: { topMm: 20, bottomMm: 20 } },
    translations: { en: { title: "Invoice" }, de: { title: "Rechnung" } },
    sampleData: [{ name: "Two lines", data: DATA }],
  };
}

/** Creates a Handlebars template through the API and answers its body (201 checked). */
async function createHandlebars(w: TestWorkspace, name: string, content: Json): Promise<Json> {
  const created = await api("/v1/templates", { key: w.key, body: { name, kind: "handlebars", content } });
  expect(created.status, created.text).toBe(201);
  return created.body as Json;
}

async function preview(w: TestWorkspace, templateId: string, body: Json) {
  const res = await fetch(`${inject("baseUrl")}/v1/templates/${templateId}/preview`, {
    method: "POST",
    headers: { "x-api-key": w.key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: Buffer.from(bytes).toString("utf8") };
}

/** The console output a preview answered in `x-folio-console` (docs/api.md, Handlebars templates). */
const consoleOf = (headers: Headers) => JSON.parse(Buffer.from(headers.get("x-folio-console") ?? "", "base64").toString("utf8")) as { step: string; level: string; message: string }[];

const expectInvoice = (text: string, title: string) => {
  expect(text).toContain(`${title} INV-7`);
  expect(text).toContain("Consulting: EUR 1200.00");
  expect(text).toContain("Travel: EUR 34.50");
  expect(text).toContain("TOTAL EUR 1234.50"); // the block helper upper-cased what the hash helper wrote
  expect(text).toContain("Items 2");
  expect(text).toContain(`${title} header`);
  expect(text).toContain("Page 1 of 1");
};

describe("Handlebars templates", () => {
  it("are created, saved, published and rendered by version, preview (pdf, png, html), batch item and the Reports API", async () => {
    const w = await createTestWorkspace();
    const assetId = await seedAsset(w, { kind: "image", filename: "logo.png", mediaType: "image/png", bytes: await solidPng(8, 8, [0, 90, 200]) });
    const sheet = await seedStylesheet(w, null, "hbs.css", "h1 { letter-spacing: 1px } .line { margin: 2px 0 }");

    const created = await createHandlebars(w, "Hbs invoice", { templateHtml: "<p>first</p>" });
    expect(created).toMatchObject({ kind: "handlebars", draftRevision: 1, draft: { templateHtml: "<p>first</p>" } });
    const id = created.id as string;
    const saved = await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { content: content(assetId), expectedRevision: 1 } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.draftRevision).toBe(2);

    // Previews of the draft: html (with the console output), pdf in the request's language, png.
    const html = await preview(w, id, { format: "html", data: DATA });
    expect(html.status, html.text).toBe(200);
    expect(html.text).toContain("<h1>Invoice INV-7</h1>");
    expect(html.text).toContain("letter-spacing: 1px"); // the workspace stylesheet, in the head
    expect(html.text).toContain(`src="http://assets.invalid/${assetId}"`);
    expect(consoleOf(html.headers)).toEqual([expect.objectContaining({ level: "log", message: "lines 2" })]);
    expect(html.headers.get("x-folio-console-omitted")).toBe("0");

    const pdf = await preview(w, id, { format: "pdf", data: DATA, locale: "de" });
    expect(pdf.status, pdf.text.slice(0, 300)).toBe(200);
    expectInvoice(norm(pdfText(pdf.bytes)), "Rechnung");
    expect(pdfImages(pdf.bytes).length).toBeGreaterThanOrEqual(1);
    expect(pdfInfo(pdf.bytes).Title).toBe("Hbs invoice");
    expect(consoleOf(pdf.headers)[0]?.message).toBe("lines 2");

    const png = await preview(w, id, { format: "png", data: DATA });
    expect(png.status, png.text.slice(0, 300)).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(imageSize(png.bytes).type).toBe("png");

    // The console editor's live preview: a person's session, unsaved content, page 1 as png; an
    // editor preview (a test render out of the renders list) with the console output all the same.
    const { cookie } = await w.signIn("member");
    const live = await api(`/v1/templates/${id}/preview`, {
      cookie,
      body: {
        content: { templateHtml: "<p>{{liveHelper}}</p>", helpers: 'function liveHelper() {\n  console.warn("typed");\n  return "live";\n}' },
        format: "png",
        image: { page: 1, scale: 1 },
      },
    });
    expect(live.status, live.text.slice(0, 300)).toBe(200);
    expect(consoleOf(live.headers)).toEqual([expect.objectContaining({ level: "warn", message: "typed" })]);
    const editorRender = await api(`/v1/renders/${live.headers.get("x-render-id")}`, { key: w.key });
    expect(editorRender.body).toMatchObject({ source: "editorPreview", test: true });

    // A preview of unsaved content is checked as a save is.
    const unsaved = await preview(w, id, { format: "html", content: { templateHtml: "x", scripts: [{ name: "bad name!", source: "" }] } });
    expect(unsaved.status).toBe(400);
    expect(JSON.parse(unsaved.text).error.details[0].path).toBe("content.scripts.0.name");

    // Publish; the version copies the stylesheet's CSS and the image, so later changes leave it alone.
    const published = await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: 2 } });
    expect(published.status, published.text).toBe(201);
    expect(published.body.kind).toBe("handlebars");
    const versionId = published.body.id as string;
    await editStylesheet(w, sheet, "h1 { letter-spacing: 9px }");
    await deleteAsset(w, assetId);

    const rendered = await api("/v1/renders", { key: w.key, body: { templateVersionId: versionId, data: DATA, waitMs: 30_000 } });
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body.state, JSON.stringify(rendered.body.error)).toBe("succeeded");
    const file = await download(rendered.body.result.downloadUrl);
    expectInvoice(norm(pdfText(file.bytes)), "Invoice");
    expect(pdfImages(file.bytes).length).toBeGreaterThanOrEqual(1);

    const report = await api("/v1/reports/render", { key: w.key, body: { format: "html", template: { name: "Hbs invoice" }, data: DATA } });
    expect(report.status, report.text).toBe(200);
    expect(report.text).toContain("letter-spacing: 1px");
    const reportPdf = await fetch(`${inject("baseUrl")}/v1/reports/render`, {
      method: "POST",
      headers: { "x-api-key": w.key, "content-type": "application/json" },
      body: JSON.stringify({ format: "pdf", template: { name: "Hbs invoice" }, data: DATA, locale: "de-CH" }),
    });
    expect(reportPdf.status).toBe(200);
    expect(reportPdf.headers.get("x-render-id")).toMatch(/^rnd_/);
    expectInvoice(norm(pdfText(new Uint8Array(await reportPdf.arrayBuffer()))), "Rechnung");

    const batch = await api("/v1/renders/batch", { key: w.key, body: { items: [{ templateVersionId: versionId, data: { ...DATA, number: "INV-8" } }] } });
    expect(batch.status, batch.text).toBe(202);
    const item = await waitForState(w.key, batch.body.items[0].id as string, undefined, { timeout: 40_000 });
    expect(item.state, JSON.stringify(item.error)).toBe("succeeded");
    expect(norm(pdfText((await download(item.result!.downloadUrl!)).bytes))).toContain("Invoice INV-8");

    // Faults of the template's code answer 400 naming what failed.
    const noHook = { templateHtml: "<p>{{x}}</p>", scripts: [{ name: "empty", source: "function other(data) { return data; }" }] };
    expect((await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { content: noHook, expectedRevision: 2 } })).status).toBe(200);
    const refused = await preview(w, id, { format: "html" });
    expect(refused.status, refused.text).toBe(400);
    expect(JSON.parse(refused.text).error.message).toContain("beforeRender");
    const syntax = await preview(w, id, { format: "html", content: { templateHtml: "<p>{{#if x}}</p>" } });
    expect(syntax.status, syntax.text).toBe(400);
    expect(JSON.parse(syntax.text).error.code).toBe("BAD_REQUEST");
  });

  it("apply their data schema in the render's own sandbox job: bad data answers 400 with every path and runs no script", async () => {
    const w = await createTestWorkspace();
    const t = await createHandlebars(w, "With a schema", {
      templateHtml: "<p>{{number}} {{marked}}</p>",
      scripts: [{ name: "mark", source: "function beforeRender(d) { console.log('script ran'); d.marked = 'yes'; }" }],
      dataSchema: { type: "object", required: ["number"], properties: { number: { type: "string", pattern: "^INV-" }, lines: { type: "array", items: { required: ["amount"] } } } },
    });
    const bad = await preview(w, t.id as string, { format: "html", data: { number: "X-1", lines: [{}] } });
    expect(bad.status, bad.text).toBe(400);
    const body = JSON.parse(bad.text) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.details.map((d) => d.path).sort()).toEqual(["lines.0", "number"]);
    expect(bad.headers.get("x-folio-console")).toBeNull();
    const good = await preview(w, t.id as string, { format: "html", data: { number: "INV-1" } });
    expect(good.status, good.text).toBe(200);
    expect(good.text).toContain("<p>INV-1 yes</p>");
    expect(consoleOf(good.headers)).toEqual([{ step: "scripts", level: "log", message: "script ran" }]);
  });

  it("answer what their code logged before it failed, as successful previews do (x-folio-console); renders do not", async () => {
    const w = await createTestWorkspace();
    const failing: Json = {
      templateHtml: "<p>{{boom}}</p>",
      scripts: [{ name: "prep", source: "function beforeRender(d) { console.log('prep ran'); return d; }" }],
      helpers: "function boom() { console.warn('about to fail'); throw new Error('no rate'); }",
    };
    const id = (await createHandlebars(w, "Failing", failing)).id as string;

    const refused = await preview(w, id, { format: "html" });
    expect(refused.status, refused.text).toBe(400);
    expect(JSON.parse(refused.text).error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("no rate") });
    expect(consoleOf(refused.headers)).toEqual([
      { step: "scripts", level: "log", message: "prep ran" },
      { step: "template", level: "warn", message: "about to fail" },
    ]);
    expect(refused.headers.get("x-folio-console-omitted")).toBe("0");

    // A limit (a partial that includes itself) in a pdf preview of unsaved content: the same headers.
    const limited = await preview(w, id, { format: "pdf", content: { templateHtml: "{{note}}{{> me}}", partials: { me: "x{{> me}}" }, helpers: "function note() { console.info('before the loop'); return ''; }" } });
    expect(limited.status, limited.text).toBe(400);
    expect(JSON.parse(limited.text).error.code).toBe("LIMIT_EXCEEDED");
    expect(consoleOf(limited.headers)).toEqual([{ step: "template", level: "info", message: "before the loop" }]);

    // Renders answer no console output, failed or not (docs/api.md).
    const render = await fetch(`${inject("baseUrl")}/v1/renders`, {
      method: "POST",
      headers: { "x-api-key": w.key, "content-type": "application/json" },
      body: JSON.stringify({ preview: { templateId: id, data: {} } }),
    });
    expect(render.status).toBe(400);
    expect(render.headers.get("x-folio-console")).toBeNull();
  });

  it("publish only drafts whose every file parses: a typo answers 400 naming the file and line, and makes no version", async () => {
    const w = await createTestWorkspace();
    const good: Json = {
      templateHtml: "<p>{{#each rows}}{{> row}}{{/each}}</p>",
      partials: { row: "<i>{{this}}</i>" },
      helpers: "function twice(s) { return s + s; }",
      scripts: [{ name: "prep", source: "function beforeRender(d) { return d; }" }],
      footer: "<small>{{pageNumber}}</small>",
    };
    const id = (await createHandlebars(w, "Typos", good)).id as string;
    let revision = 1;
    // Each typo is saved (a save runs nothing), then refused at publish with the file and line it is
    // in: the message names the file, details[].path the content field that holds it.
    for (const [typo, field, message] of [
      [{ partials: { row: "<i>\n{{#if this}}</i>" } }, "partials.row", /^partial row: Parse error on line 2/],
      [{ helpers: "function twice(s) {\n  return s +;\n}" }, "helpers", /^helpers\.js: Unexpected token .*\(line 2\)$/],
      [{ scripts: [{ name: "first", source: "function beforeRender(d) { return d; }" }, { name: "prep", source: "function beforeRender(d {}" }] }, "scripts.1", /^script prep: /],
      [{ footer: "{{/each}}" }, "footer", /^footer: Parse error on line 1/],
      [{ templateHtml: "<p>\n{{#if a}}</p>" }, "templateHtml", /^template: Parse error on line 2/],
      // Past the limit by its "{{" alone: refused before parsing, whatever the machine's speed
      // (parsing 50,000 nodes takes a second of the step's 2 s of CPU on a slow machine).
      [{ templateHtml: "{{a}}".repeat(100_001) }, "templateHtml", /^template: more than 50,000 syntax nodes/],
    ] as [Json, string, RegExp][]) {
      const saved = await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { content: { ...good, ...typo }, expectedRevision: revision } });
      expect(saved.status, saved.text).toBe(200);
      revision++;
      const refused = await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: revision } });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error.message).toMatch(message);
      expect(refused.body.error.details[0].path).toBe(field);
    }
    expect((await api(`/v1/templates/${id}/versions`, { key: w.key })).body.items).toEqual([]);
    // A stale revision is a conflict, whatever the draft holds; a content editor may not publish this
    // draft at all (more than content values changed), and hears that, not about a file it cannot edit.
    expect((await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: revision - 1 } })).status).toBe(409);
    const editor = (await w.newKey(["template:read", "template:content", "template:publish"])).secret;
    const notTheirs = await api(`/v1/templates/${id}/versions`, { key: editor, body: { expectedRevision: revision } });
    expect(notTheirs.status, notTheirs.text).toBe(403);
    expect(notTheirs.body.error.message).toMatch(/template:write/);

    // What only running finds (a script without beforeRender) is not a syntax error: it publishes, and its renders answer 400.
    const noHook = { ...good, scripts: [{ name: "prep", source: "function before(d) { return d; }" }] };
    expect((await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { content: noHook, expectedRevision: revision } })).status).toBe(200);
    const published = await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: revision + 1 } });
    expect(published.status, published.text).toBe(201);
    const render = await api("/v1/renders", { key: w.key, body: { templateVersionId: published.body.id, data: { rows: [1] } } });
    expect(render.status).toBe(400);
    expect(render.body.error.message).toMatch(/^script prep: .*beforeRender/);
    expect(render.body.error.details).toEqual([expect.objectContaining({ path: "scripts.0" })]);
  });

  it("show an image content field: {{content.<name>}} is the address its asset loads from, resolved, and copied by a version", async () => {
    const w = await createTestWorkspace();
    const assetId = await seedAsset(w, { kind: "image", filename: "banner.png", mediaType: "image/png", bytes: await solidPng(8, 8, [200, 30, 30]) });
    const withBanner = (extra: Json = {}): Json => ({
      templateHtml: `<!doctype html><html><body><h1>Banner</h1><img src="{{content.banner}}" style="width:60px;height:60px"></body></html>`,
      contentFields: [{ name: "banner", type: "image", label: "Banner", default: assetId }],
      ...extra,
    });
    const id = (await createHandlebars(w, "Banner", withBanner())).id as string;

    const html = await preview(w, id, { format: "html" });
    expect(html.status, html.text).toBe(200);
    expect(html.text).toContain(`<img src="http://assets.invalid/${assetId}"`);

    // An unknown asset as the field's value is refused as component templates refuse it, naming the value.
    const missing = await preview(w, id, { format: "html", content: withBanner({ contentValues: { banner: "ast_missing" } }) });
    expect(missing.status, missing.text).toBe(400);
    expect(JSON.parse(missing.text).error).toMatchObject({ code: "ASSET_INVALID", details: [{ path: "contentValues.banner" }] });

    // The version keeps the image: deleting the asset afterwards changes nothing, and the PDF shows it.
    const published = await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(published.status, published.text).toBe(201);
    await deleteAsset(w, assetId);
    const rendered = await api("/v1/renders", { key: w.key, body: { templateVersionId: published.body.id, data: {}, waitMs: 30_000 } });
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body.state, JSON.stringify(rendered.body.error)).toBe("succeeded");
    const file = await download(rendered.body.result.downloadUrl);
    expect(norm(pdfText(file.bytes))).toContain("Banner");
    expect(pdfImages(file.bytes)).toEqual([expect.objectContaining({ width: 8, height: 8 })]);
  });

  it("take a content editor's save of content values only: a change of sample data answers 403 naming each changed field at its path", async () => {
    const w = await createTestWorkspace();
    const base: Json = {
      templateHtml: "<p>{{content.headline}} {{name}}</p>",
      contentFields: [{ name: "headline", type: "text", label: "Headline" }],
      sampleData: [{ name: "example", data: { name: "Ann" } }],
    };
    const id = (await createHandlebars(w, "Newsletter", base)).id as string;
    const editor = (await w.newKey(["template:read", "template:content"])).secret;
    const save = (content: Json, expectedRevision: number) => api(`/v1/templates/${id}/draft`, { key: editor, method: "PUT", body: { content, expectedRevision } });

    const sample = { ...base, sampleData: [{ name: "renamed", data: { name: "Bo" } }], helpers: "function x() {}", contentValues: { headline: "Hi" } };
    const refused = await save(sample, 1);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.message).toBe("This key lacks template:write, needed to change helpers and sampleData; it may change only the values of content fields (contentValues)");
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toEqual(["content.helpers", "content.sampleData"]);

    // Key order is not a change; the values alone save.
    const reordered = { sampleData: base.sampleData, contentValues: { headline: "Hi" }, contentFields: base.contentFields, templateHtml: base.templateHtml };
    const saved = await save(reordered, 1);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.draftRevision).toBe(2);
  });

  it("refuse a partial or a translation named __proto__ with 400 naming it, at create, save and preview, instead of dropping it", async () => {
    const w = await createTestWorkspace();
    // why written out: in an object literal, __proto__ sets the prototype instead of making the key.
    const partials = `{"templateHtml": "{{> __proto__}}", "partials": {"__proto__": "<b>x</b>"}}`;
    const translations = `{"templateHtml": "x", "translations": {"__proto__": {"title": "x"}}}`;
    for (const [content, path] of [[partials, "content.partials.__proto__"], [translations, "content.translations.__proto__"]] as const) {
      const created = await api("/v1/templates", { key: w.key, body: `{"name": "Proto", "kind": "handlebars", "content": ${content}}` });
      expect(expectError(created, 400, "BAD_REQUEST").details).toEqual([{ path, message: expect.stringContaining("JavaScript") }]);
    }
    expect((await api("/v1/templates?q=Proto", { key: w.key })).body.items).toEqual([]);
    const t = await createHandlebars(w, "Proto later", { templateHtml: "x" });
    const saved = await api(`/v1/templates/${t.id as string}/draft`, { key: w.key, method: "PUT", body: `{"content": ${partials}, "expectedRevision": 1}` });
    expectError(saved, 400, "BAD_REQUEST");
    const previewed = await api(`/v1/templates/${t.id as string}/preview`, { key: w.key, body: `{"format": "html", "content": ${partials}}` });
    expectError(previewed, 400, "BAD_REQUEST");
    expect((await api(`/v1/templates/${t.id as string}`, { key: w.key })).body.draftRevision).toBe(1);
    // A component template's translation file too.
    const component = `{"composition": {"root": {"type": "text", "text": "x"}}, "translations": {"__proto__": {"title": "x"}}}`;
    const refused = await api("/v1/templates", { key: w.key, body: `{"name": "Proto component", "content": ${component}}` });
    expect(expectError(refused, 400, "BAD_REQUEST").details).toEqual([{ path: "content.translations.__proto__", message: expect.stringContaining("JavaScript") }]);
  });

  it("answer each save limit of the spec at its bound: at the limit saved, one over 400 LIMIT_EXCEEDED naming the field", async () => {
    const w = await createTestWorkspace();
    const id = (await createHandlebars(w, "Limits", { templateHtml: "x" })).id as string;
    let revision = 1;
    const save = async (c: Json) => {
      const res = await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { content: { templateHtml: "x", ...c }, expectedRevision: revision } });
      if (res.status === 200) revision = res.body.draftRevision as number;
      return res;
    };
    const fits = async (c: Json) => {
      const res = await save(c);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    };
    const over = async (c: Json, path: string) => {
      const res = await save(c);
      const e = expectError(res, 400, "LIMIT_EXCEEDED");
      expect((e.details?.[0] as { path?: string } | undefined)?.path, res.text.slice(0, 300)).toBe(path);
    };
    const many = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
    const record = (n: number, f: (i: number) => [string, unknown]) => Object.fromEntries(many(n, f));

    await fits({ templateHtml: "x".repeat(2_000_000) });
    await over({ templateHtml: "x".repeat(2_000_001) }, "content.templateHtml");
    await fits({ header: "h".repeat(100_000), footer: "f".repeat(100_000) });
    await over({ footer: "f".repeat(100_001) }, "content.footer");
    await fits({ helpers: "/".repeat(500_000) });
    await over({ helpers: "/".repeat(500_001) }, "content.helpers");
    await fits({ partials: { ...record(199, (i) => [`p${i}`, "x"]), ["n".repeat(255)]: "p".repeat(1_000_000) } });
    await over({ partials: record(201, (i) => [`p${i}`, "x"]) }, "content.partials");
    await over({ partials: { big: "p".repeat(1_000_001) } }, "content.partials.big");
    await over({ partials: { ["n".repeat(256)]: "x" } }, `content.partials.${"n".repeat(256)}`);
    const script = (i: number) => ({ name: `s${i}`, source: "function beforeRender(d) { return d; }" });
    await fits({ scripts: [...many(9, script), { name: "s".repeat(80), source: "/".repeat(100_000) }] });
    await over({ scripts: many(11, script) }, "content.scripts");
    await over({ scripts: [{ name: "s", source: "/".repeat(100_001) }] }, "content.scripts.0.source");
    await over({ scripts: [{ name: "s".repeat(81), source: "" }] }, "content.scripts.0.name");
    await fits({ sampleData: [...many(19, (i) => ({ name: `d${i}`, data: {} })), { name: "d".repeat(80), data: { a: 1 } }] });
    await over({ sampleData: many(21, (i) => ({ name: `d${i}`, data: {} })) }, "content.sampleData");
    await over({ sampleData: [{ name: "d".repeat(81), data: {} }] }, "content.sampleData.0.name");
    const tag = (i: number) => `en-${String(100 + i)}`;
    await fits({ translations: record(20, (i) => [tag(i), { a: "b" }]) });
    await over({ translations: record(21, (i) => [tag(i), {}]) }, "content.translations");
    await fits({ stylesheets: many(20, (i) => `s${i}.css`) });
    await over({ stylesheets: many(21, (i) => `s${i}.css`) }, "content.stylesheets");

    // 5 MB of source: the content's JSON, each field within its own limit.
    const base = { templateHtml: "t".repeat(2_000_000), helpers: "h".repeat(500_000), partials: { a: "a".repeat(1_000_000), b: "b".repeat(1_000_000), c: "" } };
    const pad = 5_000_000 - Buffer.byteLength(JSON.stringify(base));
    await fits({ ...base, partials: { ...base.partials, c: "c".repeat(pad) } });
    const tooBig = await save({ ...base, partials: { ...base.partials, c: "c".repeat(pad + 1) } });
    expect(expectError(tooBig, 400, "LIMIT_EXCEEDED").message).toContain("5 MB");
  });
});
