/**
 * Exports and imports through the API as a team moving templates between workspaces uses them: a
 * workspace holding every template kind, a folder with a stylesheet and an uploaded image, exported
 * and imported into a new workspace where its templates render the same; the round trip's text
 * files byte for byte; conflicts skipped, renamed or replaced; hostile archives refused with
 * nothing written; one import or export at a time; scopes.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { PNG_1X1, putRaw, uploadAsset } from "@/lib/testing/assets";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { pdfFonts, pdfImages, pdfText } from "@/lib/testing/pdf";
import { invoiceWorkbook, readWorkbook } from "@/lib/testing/workbooks";
import { inflate, readZip, ZipWriter } from "../zip/zip";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function download(path: string, key: string) {
  const res = await fetch(`${inject("baseUrl")}${path}`, { headers: { "x-api-key": key } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString(), body: res.headers.get("content-type")?.includes("json") ? JSON.parse(bytes.toString()) : undefined };
}

async function postFile(path: string, key: string, body: unknown) {
  const res = await fetch(`${inject("baseUrl")}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The entries of a zip, inflated, by name. */
function entriesOf(zip: Buffer): Map<string, Buffer> {
  const limits = { maxEntries: 20_000, maxTotalBytes: 1e9, maxRatio: 10_000, maxNameBytes: 2048 };
  const budget = { left: 1e9 };
  return new Map(readZip(zip, limits).map((e) => [e.name, inflate(e, limits, budget)]));
}

const zipOf = (files: [string, string | Buffer][]) => {
  const w = new ZipWriter();
  for (const [n, d] of files) w.add(n, d);
  return Buffer.concat(w.finish());
};

const templateNames = async (w: TestWorkspace) => ((await api("/v1/templates?limit=100", { key: w.key })).body.items as { name: string }[]).map((t) => t.name).sort();

let a: TestWorkspace;
let exported: Buffer;
const ids: Record<string, string> = {};
const css = "@font-face { font-family: Brand; src: url(Inter.woff2); }\nh1 { font-family: Brand; color: #0a7; letter-spacing: 1px; }\n/* kept byte for byte: é, tabs\tand CRLF\r\n */\n";
const INTER = fs.readFileSync(path.join(process.cwd(), "node_modules/@fontsource/inter/files/inter-latin-400-normal.woff2"));
const hbsHtml = (logo: string) => `<html><body style="font-family: sans-serif">\n  <h1>Hello {{name}}</h1>\n  <img src="http://assets.invalid/${logo}" width="40" height="40">\n</body></html>\n`;

beforeAll(async () => {
  a = await createTestWorkspace();
  const logo = await uploadAsset(a.key, { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: PNG_1X1 });
  const book = await uploadAsset(a.key, { kind: "workbook", mediaType: XLSX, filename: "invoice.xlsx", bytes: invoiceWorkbook() });
  ids.logo = logo.id;
  const font = await uploadAsset(a.key, { kind: "font", mediaType: "font/woff2", filename: "Inter.woff2", bytes: INTER });
  const folder = await api("/v1/workspace-folders", { key: a.key, body: { name: "brand" } });
  expect(folder.status, folder.text).toBe(201);
  ids.folder = folder.body.id;
  expect((await api("/v1/workspace-files", { key: a.key, body: { folderId: ids.folder, name: "site.css", content: css } })).status).toBe(201);
  expect((await api("/v1/workspace-files", { key: a.key, body: { folderId: ids.folder, name: "logo.png", assetId: logo.id } })).status).toBe(201);
  expect((await api("/v1/workspace-files", { key: a.key, body: { folderId: ids.folder, name: "Inter.woff2", assetId: font.id } })).status).toBe(201);
  const hbs = await api("/v1/templates", {
    key: a.key,
    body: { name: "Greeting", kind: "handlebars", folderId: ids.folder, content: { templateHtml: hbsHtml(logo.id), helpers: "function shout(s) { return String(s).toUpperCase(); }\n", partials: { sig: "<p>Regards</p>" }, stylesheets: ["site.css"], sampleData: [{ name: "Ann", data: { name: "Ann" } }] } },
  });
  expect(hbs.status, hbs.text).toBe(201);
  ids.greeting = hbs.body.id;
  // Published once, then edited: the export carries version 1 and the newer draft.
  expect((await api(`/v1/templates/${hbs.body.id}/versions`, { key: a.key, body: { expectedRevision: 1 } })).status).toBe(201);
  const draft = (await api(`/v1/templates/${hbs.body.id}`, { key: a.key })).body.draft;
  expect((await api(`/v1/templates/${hbs.body.id}/draft`, { key: a.key, method: "PUT", body: { expectedRevision: 1, content: { ...draft, sampleData: [{ name: "Bo", data: { name: "Bo" } }] } } })).status).toBe(200);
  const comp = await api("/v1/templates", { key: a.key, body: { name: "Note", content: { composition: { root: { type: "text", text: { parts: ["Note for ", { path: ["name"] }] } } } } } });
  expect(comp.status, comp.text).toBe(201);
  const wb = await api("/v1/templates", { key: a.key, body: { name: "Sheet", kind: "workbook", content: { workbook: { assetId: book.id } } } });
  expect(wb.status, wb.text).toBe(201);
  const res = await download("/v1/workspace-folders/export", a.key);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toBe('attachment; filename="workspace.zip"');
  exported = res.bytes;
});

describe("exports", () => {
  it("are readable files: sources as files, uploads in assets/, a manifest", () => {
    const files = entriesOf(exported);
    expect(files.get("brand/site.css")!.toString()).toBe(css);
    expect(files.get("brand/Greeting.template/template.html")!.toString()).toBe(hbsHtml(ids.logo!));
    expect(files.get("brand/Greeting.template/helpers.js")!.toString()).toBe("function shout(s) { return String(s).toUpperCase(); }\n");
    expect(files.get("brand/Greeting.template/partials/sig.hbs")!.toString()).toBe("<p>Regards</p>");
    expect(JSON.parse(files.get("Note.template/template.json")!.toString())).toMatchObject({ name: "Note", kind: "component", content: { composition: {} } });
    const manifest = JSON.parse(files.get("folio.json")!.toString());
    expect(Object.keys(manifest.assetFiles).sort()).toEqual(["brand/Inter.woff2", "brand/logo.png"]);
    expect(files.get(manifest.assets[ids.logo!].path)!.equals(PNG_1X1)).toBe(true);
    expect(Object.values(manifest.assets as Record<string, { kind: string }>).map((x) => x.kind).sort()).toEqual(["font", "image", "workbook"]);
  });

  it("of one folder has the folder as its top, and needs asset:manage when it holds uploads", async () => {
    const res = await download(`/v1/workspace-folders/${ids.folder}/export`, a.key);
    expect(res.status).toBe(200);
    const sources = ["helpers.js", "partials/sig.hbs", "template.html", "template.json"];
    expect([...entriesOf(res.bytes).keys()].filter((n) => !n.startsWith("assets/")).sort()).toEqual(
      [...sources.map((f) => `Greeting.template/${f}`), ...sources.map((f) => `Greeting.template/versions/1/${f}`), "folio.json", "site.css"].sort(),
    );
    const reader = await a.newKey(["template:read"]);
    expectError(await download("/v1/workspace-folders/export", reader.secret), 403, "FORBIDDEN");
  });
});

describe("imports", () => {
  it("inspects, then puts a workspace into another where its templates render the same, and round-trips text files byte for byte", async () => {
    const b = await createTestWorkspace();
    const body = { archive: exported.toString("base64"), label: "from staging" };
    const inspect = await api("/v1/workspace-folders/import/inspect", { key: b.key, body });
    expect(inspect.status, inspect.text).toBe(200);
    expect(inspect.body).toMatchObject({ applied: false, label: "from staging", folders: [{ path: "brand", action: "create" }] });
    expect(inspect.body.templates.map((t: { name: string; action: string }) => [t.name, t.action]).sort()).toEqual([["Greeting", "create"], ["Note", "create"], ["Sheet", "create"]]);
    expect(await templateNames(b)).toEqual([]);

    const done = await api("/v1/workspace-folders/import", { key: b.key, body });
    expect(done.status, done.text).toBe(200);
    expect(done.body.applied).toBe(true);
    expect(await templateNames(b)).toEqual(["Greeting", "Note", "Sheet"]);
    // Greeting's published version came along, then its newer draft.
    const item = done.body.templates.find((t: { name: string }) => t.name === "Greeting");
    expect(item).toMatchObject({ versions: 1, version: 1 });
    const versions = (await api(`/v1/templates/${item.id}/versions`, { key: b.key })).body.items;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1]);
    expect((await api(`/v1/templates/${item.id}`, { key: b.key })).body).toMatchObject({ draftRevision: 2, publishedVersion: 1, draft: { sampleData: [{ name: "Bo" }] } });
    const greeting = done.body.templates.find((t: { name: string }) => t.name === "Greeting").id as string;
    const newLogo = done.body.assets.find((x: { filename: string }) => x.filename === "logo.png").id as string;
    expect(newLogo).not.toBe(ids.logo);
    const draft = (await api(`/v1/templates/${greeting}`, { key: b.key })).body.draft;
    expect(draft.templateHtml).toBe(hbsHtml(newLogo));

    // The same text and image in both workspaces' PDFs.
    const pdfA = await postFile(`/v1/templates/${(await api("/v1/templates?q=Greeting", { key: a.key })).body.items[0].id}/preview`, a.key, { data: { name: "Bo" } });
    const pdfB = await postFile(`/v1/templates/${greeting}/preview`, b.key, { data: { name: "Bo" } });
    expect(pdfB.status).toBe(200);
    expect(pdfText(pdfB.bytes)).toBe(pdfText(pdfA.bytes));
    expect(pdfText(pdfB.bytes)).toContain("Hello Bo");
    expect(pdfImages(pdfB.bytes)).toEqual(pdfImages(pdfA.bytes));
    expect(pdfImages(pdfB.bytes)).toHaveLength(1);
    // The heading's font came through the imported stylesheet and font file.
    expect(pdfFonts(pdfB.bytes)).toEqual(pdfFonts(pdfA.bytes));
    expect(pdfFonts(pdfB.bytes).some((f) => /Inter/i.test(f))).toBe(true);
    // The workbook template fills from the imported workbook.
    const sheet = done.body.templates.find((t: { name: string }) => t.name === "Sheet").id as string;
    const xlsx = await postFile(`/v1/templates/${sheet}/preview`, b.key, { format: "xlsx", data: { number: "N-1", lines: [] } });
    expect(xlsx.status).toBe(200);
    expect(readWorkbook(xlsx.bytes).cells("xl/worksheets/sheet1.xml").get("A1")!.value).toBe("Invoice N-1");

    // Exported again from B: every text file byte for byte as in A's export, but for the uploads' ids (B's own).
    const again = entriesOf((await download("/v1/workspace-folders/export", b.key)).bytes);
    const first = entriesOf(exported);
    const oldIds = JSON.parse(first.get("folio.json")!.toString()).assets as Record<string, { filename: string }>;
    const newIds = new Map((done.body.assets as { filename: string; id: string }[]).map((x) => [x.filename, x.id]));
    const inB = (text: string) => Object.entries(oldIds).reduce((t, [id, x]) => t.replaceAll(id, newIds.get(x.filename)!), text);
    expect([...again.keys()].filter((n) => !n.startsWith("assets/")).sort()).toEqual([...first.keys()].filter((n) => !n.startsWith("assets/")).sort());
    for (const [name, bytes] of first) {
      if (name.startsWith("assets/") || name === "folio.json") continue;
      expect(again.get(name)!.equals(Buffer.from(inB(bytes.toString("latin1")), "latin1")), name).toBe(true);
    }
    expect(again.get("brand/site.css")!.equals(first.get("brand/site.css")!)).toBe(true);
    const audit = await api("/v1/audit-events?limit=5", { key: b.key });
    expect(audit.body.items.find((e: { action: string }) => e.action === "workspace.import").details).toMatchObject({ label: "from staging", templates: { created: 3 }, assets: { created: 3 } });
  });

  it("skips, renames or replaces what exists, and reuses uploads it already holds", async () => {
    const c = await createTestWorkspace();
    const body = { archive: exported.toString("base64") };
    expect((await api("/v1/workspace-folders/import", { key: c.key, body })).status).toBe(200);
    const skip = await api("/v1/workspace-folders/import", { key: c.key, body });
    expect(skip.body.templates.map((t: { action: string }) => t.action)).toEqual(["skip", "skip", "skip"]);
    expect(skip.body.assets.map((x: { action: string }) => x.action)).toEqual(["reuse", "reuse", "reuse"]);
    const renamed = await api("/v1/workspace-folders/import", { key: c.key, body: { ...body, onConflict: "rename" } });
    expect(renamed.body.templates.map((t: { as: string }) => t.as).sort()).toEqual(["Greeting (2)", "Note (2)", "Sheet (2)"]);
    expect(renamed.body.files.map((f: { as: string }) => f.as).sort()).toEqual(["Inter (2).woff2", "logo (2).png", "site (2).css"]);
    const replaced = await api("/v1/workspace-folders/import", { key: c.key, body: { ...body, onConflict: "replace" } });
    expect(replaced.body.templates.map((t: { action: string }) => t.action)).toEqual(["replace", "replace", "replace"]);
    const note = replaced.body.templates.find((t: { name: string }) => t.name === "Note").id;
    expect((await api(`/v1/templates/${note}`, { key: c.key })).body.draftRevision).toBe(2);
    expect((await templateNames(c)).length).toBe(6);
  });

  it("publishes what it imports when asked (template:publish), in the same transaction, and refuses a syntax error before writing anything", async () => {
    const f = await createTestWorkspace();
    const done = await api("/v1/reports/import", { key: f.key, body: { archive: exported.toString("base64"), publish: true, label: "release 7" } });
    expect(done.status, done.text).toBe(200);
    // Greeting's archived version 1, then its draft as version 2; the others' drafts as version 1.
    expect(Object.fromEntries(done.body.templates.map((t: { name: string; version: number }) => [t.name, t.version]))).toEqual({ Greeting: 2, Note: 1, Sheet: 1 });
    const report = await postFile("/v1/reports/render", f.key, { format: "html", template: { name: "Greeting" }, data: { name: "Cy" } });
    expect(report.bytes.toString()).toContain("Hello Cy");
    const reports = (await api("/v1/reports", { key: f.key })).body.items.map((r: { name: string; formats: string[] }) => [r.name, r.formats.join()]);
    expect(reports).toEqual([["Greeting", "pdf,png,html"], ["Note", "pdf,png,html"], ["Sheet", "xlsx"]]);
    const writer = await f.newKey(["template:write", "template:read", "asset:manage"]);
    expectError(await api("/v1/reports/import", { key: writer.secret, body: { archive: exported.toString("base64"), publish: true } }), 403, "FORBIDDEN");
    const g = await createTestWorkspace();
    const broken = zipOf([
      ["folio.json", JSON.stringify({ format: "folio-export", version: 1 })],
      ["Ok.template/template.json", JSON.stringify({ name: "Ok", kind: "handlebars", content: {} })],
      ["Ok.template/template.html", "<p>{{fine}}</p>"],
      ["Typo.template/template.json", JSON.stringify({ name: "Typo", kind: "handlebars", content: {} })],
      ["Typo.template/template.html", "<p>{{#if x}}never closed</p>"],
    ]);
    const e = expectError(await api("/v1/reports/import", { key: g.key, body: { archive: broken.toString("base64"), publish: true } }), 400, "BAD_REQUEST");
    expect(e.message).toMatch(/^Typo.template: /);
    expect(await templateNames(g)).toEqual([]);
  });

  it("refuses hostile archives with a clear 400 and writes nothing", async () => {
    const d = await createTestWorkspace();
    const manifest = JSON.stringify({ format: "folio-export", version: 1 });
    const cases: [Buffer, RegExp][] = [
      [zipOf([["folio.json", manifest], ["../../etc/cron.d/x.css", "x"]]), /"\.\." segment/],
      [zipOf([["folio.json", manifest], ["/abs.css", "x"]]), /absolute path/],
      [zipOf([["folio.json", manifest], ["a.css", "x"], ["a.css", "y"]]), /duplicate name/],
      [zipOf([["folio.json", manifest], ["zeros.css", Buffer.alloc(40_000_000, 32)]]), /zip bomb/],
      [zipOf([["folio.json", manifest], [`${"n".repeat(300)}.css`, "x"]]), /longer than 255 bytes/],
      [zipOf([["folio.json", manifest], ["ok.css", "x"], ["Bad.template/template.json", "{}"]]), /Bad.template\/template.json/],
      [Buffer.from("not a zip"), /not a zip archive/],
    ];
    for (const [zip, message] of cases) {
      const e = expectError(await api("/v1/workspace-folders/import", { key: d.key, body: { archive: zip.toString("base64") } }), 400, "BAD_REQUEST");
      expect(e.message).toMatch(message);
    }
    // An upload that says it is an image but is HTML (served from Folio's origin it would run there), and two templates of one name.
    const html = JSON.stringify({ format: "folio-export", version: 1, assets: { ast_evil1234567: { path: "assets/ast_evil1234567/x.png", kind: "image", mediaType: "text/html", filename: "x.png" } } });
    const evil = zipOf([["folio.json", html], ["assets/ast_evil1234567/x.png", "<script>alert(1)</script>"]]);
    expect(expectError(await api("/v1/workspace-folders/import", { key: d.key, body: { archive: evil.toString("base64") } }), 400, "BAD_REQUEST").message).toMatch(/asset ast_evil1234567: a image is image\/png or image\/jpeg, not text\/html/);
    const twice = zipOf([["folio.json", manifest], ["A.template/template.json", JSON.stringify({ name: "Same", kind: "component", content: { composition: { root: { type: "text", text: "a" } } } })], ["B.template/template.json", JSON.stringify({ name: "same", kind: "component", content: { composition: { root: { type: "text", text: "b" } } } })]]);
    expect(expectError(await api("/v1/workspace-folders/import", { key: d.key, body: { archive: twice.toString("base64"), onConflict: "replace" } }), 400, "BAD_REQUEST").message).toMatch(/another template of the archive in its top folder is named same/);
    // A template whose content a save refuses: named, and the files before it in the archive are not written either.
    const bad = zipOf([["folio.json", manifest], ["good.css", "x"], ["Bad.template/template.json", JSON.stringify({ name: "Bad", kind: "component", content: { composition: 5 } })]]);
    const e = expectError(await api("/v1/workspace-folders/import", { key: d.key, body: { archive: bad.toString("base64") } }), 400, "BAD_REQUEST");
    expect(e.message).toMatch(/^Bad.template: /);
    expect(await templateNames(d)).toEqual([]);
    expect((await api("/v1/workspace-files", { key: d.key })).body.items).toEqual([]);
    // Bodies over their endpoint's limit (spec: Request bodies), refused from Content-Length before the body is read.
    for (const [p, limit] of [["/v1/reports/import", "30 MiB"], ["/v1/reports/import/inspect", "30 MiB"], ["/v1/workspace-folders/import", "60 MiB"]] as const) {
      const announced = (limit === "30 MiB" ? 30 : 60) * 1024 * 1024 + 1;
      const r = await putRaw(`${inject("baseUrl")}${p}`, { "x-api-key": d.key, "content-type": "application/json", "content-length": String(announced) }, '{"archive":"', "POST");
      expect(r.status, `${p}: ${r.text}`).toBe(413);
      expect(r.body?.error?.code).toBe("LIMIT_EXCEEDED");
      expect(r.body?.error?.message).toContain(limit);
    }
    // 10,001 entries, and a report archive over 20 MB once decoded.
    const many = zipOf([["folio.json", manifest], ...Array.from({ length: 10_000 }, (_, i) => [`f${i}.css`, ""] as [string, string])]);
    expect(expectError(await api("/v1/reports/import", { key: d.key, body: { archive: many.toString("base64") } }), 400, "LIMIT_EXCEEDED").message).toMatch(/10,001 entries/);
    const huge = zipOf([["folio.json", manifest], ["noise.bin", randomBytes(21_000_000)]]);
    expect(huge.length).toBeGreaterThan(20_000_000);
    const over = expectError(await api("/v1/reports/import/inspect", { key: d.key, body: { archive: huge.toString("base64") } }), 400, "BAD_REQUEST");
    expect(over.message).toMatch(/report archive has [\d,]+ bytes once decoded; at most 20,000,000/);
  });

  it("runs one import or export at a time per workspace (429 without Retry-After), and needs asset:manage to bring uploads", async () => {
    const e = await createTestWorkspace();
    await db().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`folio.archive:${e.id}`}, 0))`);
      const res = await api("/v1/workspace-folders/import", { key: e.key, body: { archive: exported.toString("base64") } });
      const err = expectError(res, 429, "RATE_LIMITED");
      expect(err.message).toMatch(/Another import or export of this workspace is running/);
      expect(res.headers.get("retry-after")).toBeNull();
      expectError(await download("/v1/workspace-folders/export", e.key), 429, "RATE_LIMITED");
    });
    // A folder an import could not take back (the name uploads are kept under) is refused at export, naming it.
    expect((await api("/v1/workspace-folders", { key: e.key, body: { name: "Assets" } })).status).toBe(201);
    expect(expectError(await download("/v1/workspace-folders/export", e.key), 409, "CONFLICT").message).toMatch(/Assets at the top has a name Folio's exports keep for themselves/);
    const writer = await e.newKey(["template:write", "template:read"]);
    expectError(await api("/v1/workspace-folders/import", { key: writer.secret, body: { archive: exported.toString("base64") } }), 403, "FORBIDDEN");
    expect(await templateNames(e)).toEqual([]);
  });
});
