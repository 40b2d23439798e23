import { describe, expect, inject, it } from "vitest";
import { storageBytes } from "@/lib/assets";
import { blobKey } from "@/lib/documents/asset-refs";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { fileStore } from "@/lib/files/store";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { pdfFonts, pdfImages, pdfInfo, pdfText } from "@/lib/testing/pdf";
import { download, waitForState } from "@/lib/testing/renders";
import { deleteAsset, editStylesheet, fontsourceFile, pdfPixel, seedAsset, seedAssetFile, seedFolder, seedStylesheet, sha256, solidPng } from "@/lib/testing/template-files";
import { fromDraft } from "./prepare";

// Templates with what they use besides their content, rendered for real on the shared server and
// worker: images by asset ID, workspace stylesheets (order, className, @import, url() fonts),
// translation files, the default title, the template limits, and published versions that keep
// what they copied.

type Json = Record<string, unknown>;
type Detail = { path?: string; message: string };
const norm = (s: string) => s.replace(/\s+/g, " ").trim();
const paths = (e: { details?: unknown[] }) => ((e.details ?? []) as Detail[]).map((d) => d.path);
const messages = (e: { details?: unknown[] }) => ((e.details ?? []) as Detail[]).map((d) => d.message).join("\n");

const text = (t: unknown, extra: Json = {}) => ({ type: "text", text: t, ...extra });
const image = (assetId: unknown, extra: Json = {}) => ({ type: "image", assetId, ...extra });
const container = (...children: unknown[]) => ({ type: "container", children });

async function createTemplate(w: TestWorkspace, content: Json, name = "Template", folderId?: string): Promise<string> {
  const res = await api("/v1/templates", { key: w.key, body: { name, content, ...(folderId ? { folderId } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function publish(w: TestWorkspace, templateId: string, expectedRevision = 1): Promise<string> {
  const res = await api(`/v1/templates/${templateId}/versions`, { key: w.key, body: { expectedRevision } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** POST /v1/templates/{id}/preview as a file (pdf) or html. */
async function preview(w: TestWorkspace, templateId: string, body: Json = {}) {
  const res = await fetch(`${inject("baseUrl")}/v1/templates/${templateId}/preview`, {
    method: "POST",
    headers: { "x-api-key": w.key, "content-type": "application/json" },
    body: JSON.stringify({ format: "pdf", ...body }),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, text: Buffer.from(bytes).toString("utf8") };
}

async function previewPdf(w: TestWorkspace, templateId: string, body: Json = {}) {
  const res = await preview(w, templateId, body);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return { bytes: res.bytes, text: norm(pdfText(res.bytes)) };
}

async function previewHtml(w: TestWorkspace, templateId: string, body: Json = {}) {
  const res = await preview(w, templateId, { ...body, format: "html" });
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return res.text;
}

async function renderVersion(w: TestWorkspace, templateVersionId: string, data: Json = {}) {
  const res = await api("/v1/renders", { key: w.key, body: { templateVersionId, data, waitMs: 20_000 } });
  expect([200, 202], res.text).toContain(res.status);
  const render = res.status === 200 ? res.body : await waitForState(w.key, res.body.id, undefined, { timeout: 40_000 });
  expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
  const file = await download(render.result.downloadUrl);
  return { bytes: file.bytes, text: norm(pdfText(file.bytes)) };
}

const errorOf = (res: { status: number; text: string }, status: number, code: string) =>
  expectError({ status: res.status, headers: new Headers(), body: JSON.parse(res.text), text: res.text }, status, code);

// --- images ---------------------------------------------------------------------------------------

/** Runs `make(i)` for i from 0 to n - 1, ten at a time; the results in order. */
async function inBatches<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += 10) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(10, n - start) }, (_, k) => make(start + k)))));
  }
  return out;
}

describe("image components", () => {
  it("draws a literal image asset from the asset origin by its blob's sha256, at its size, and lists only drawn images for the render", async () => {
    const w = await createTestWorkspace();
    const png = await solidPng(40, 20, [200, 30, 30]);
    const logo = await seedAsset(w, { kind: "image", filename: "logo.png", mediaType: "image/png", bytes: png });
    const spare = await seedAsset(w, { kind: "image", filename: "spare.png", mediaType: "image/png", bytes: await solidPng(4, 4, [0, 0, 0]) });
    const id = await createTemplate(w, {
      composition: { root: container(image(logo, { width: 120, height: 60 }), image(spare, { visibleWhen: { path: ["never"], operator: "exists" } }), text("After the logo")) },
    });
    const html = await previewHtml(w, id);
    expect(html).toContain(`<img class="f-image" src="http://assets.invalid/${sha256(png)}" alt="" style="width:120px;height:60px">`);

    // The render's input carries the drawn image only, named by its sha256 and labelled by its ID.
    const prepared = await fromDraft(systemCtx(w.id, "test"), id, {}, undefined);
    expect(prepared.assets).toEqual([{ name: sha256(png), key: `assets/${w.id}/${sha256(png)}`, mediaType: "image/png", size: png.byteLength, sha256: sha256(png), label: logo }]);

    const pdf = await previewPdf(w, id);
    expect(pdf.text).toContain("After the logo");
    expect(pdfImages(pdf.bytes)).toEqual([{ page: 1, width: 40, height: 20 }]);
  });

  it("refuses a literal ID that is unknown, of another workspace, not an image or not uploaded, naming each component", async () => {
    const w = await createTestWorkspace();
    const other = await createTestWorkspace();
    const foreign = await seedAsset(other, { kind: "image", filename: "x.png", mediaType: "image/png", bytes: await solidPng(2, 2, [1, 2, 3]) });
    const font = await seedAsset(w, { kind: "font", filename: "Inter.woff2", mediaType: "font/woff2", bytes: fontsourceFile("inter", "inter-latin-400-normal.woff2") });
    const id = await createTemplate(w, { composition: { root: container(image("ast_nope"), text("x"), image(foreign), image(font)) } });
    const e = errorOf(await preview(w, id), 400, "ASSET_INVALID");
    expect(paths(e)).toEqual(["composition.root.children.0.assetId", "composition.root.children.2.assetId", "composition.root.children.3.assetId"]);
    expect(messages(e)).toContain("no asset ast_nope");
    expect(messages(e)).toContain(`no asset ${foreign}`);
    expect(messages(e)).toContain(`asset ${font} is a font, not an image`);
    // Publishing refuses the same, and creates no version.
    const published = await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(paths(expectError(published, 400, "ASSET_INVALID"))).toHaveLength(3);
    expect((await api(`/v1/templates/${id}/versions`, { key: w.key })).body.items).toEqual([]);
  });

  it("a binding selects only an image the template names literally; any other value answers 400 ASSET_INVALID", async () => {
    const w = await createTestWorkspace();
    const red = await solidPng(30, 10, [255, 0, 0]);
    const blue = await solidPng(10, 30, [0, 0, 255]);
    const a = await seedAsset(w, { kind: "image", filename: "red.png", mediaType: "image/png", bytes: red });
    const b = await seedAsset(w, { kind: "image", filename: "blue.png", mediaType: "image/png", bytes: blue });
    const unnamed = await seedAsset(w, { kind: "image", filename: "unnamed.png", mediaType: "image/png", bytes: await solidPng(3, 3, [9, 9, 9]) });
    const hidden = { visibleWhen: { path: ["never"], operator: "exists" } };
    const id = await createTemplate(w, { composition: { root: container(image(a, hidden), image(b, hidden), image({ path: ["logo"] }, { height: 12 })) } });
    const versionId = await publish(w, id);

    const pickedB = await renderVersion(w, versionId, { logo: b });
    expect(pdfImages(pickedB.bytes)).toEqual([{ page: 1, width: 10, height: 30 }]);
    const html = await previewHtml(w, id, { data: { logo: a } });
    expect(html).toContain(`src="http://assets.invalid/${sha256(red)}" alt="" style="height:12px"`);
    expect(html).not.toContain(sha256(blue));

    for (const logo of [unnamed, "ast_nope"]) {
      const e = expectError(await api("/v1/renders", { key: w.key, body: { templateVersionId: versionId, data: { logo } } }), 400, "ASSET_INVALID");
      expect(paths(e)).toEqual(["logo"]);
      expect(e.message).toContain(JSON.stringify(logo));
    }
    expect(paths(expectError(await api("/v1/renders", { key: w.key, body: { templateVersionId: versionId, data: {} } }), 400, "BAD_REQUEST"))).toEqual(["logo"]);
  });

  it("node documents draw literal image assets too", async () => {
    const w = await createTestWorkspace();
    const png = await solidPng(16, 8, [0, 128, 0]);
    const id = await seedAsset(w, { kind: "image", filename: "g.png", mediaType: "image/png", bytes: png });
    const res = await api("/v1/renders", { key: w.key, body: { nodeDocument: { root: container(image(id, { width: 64 }), text("node image")) }, waitMs: 20_000 } });
    expect(res.status, res.text).toBe(200);
    const file = await download(res.body.result.downloadUrl);
    expect(pdfImages(file.bytes)).toEqual([{ page: 1, width: 16, height: 8 }]);
    const refused = expectError(await api("/v1/renders", { key: w.key, body: { nodeDocument: { root: image("ast_missing") } } }), 400, "ASSET_INVALID");
    expect(paths(refused)).toEqual(["nodeDocument.root.assetId"]);
  });
});

// --- stylesheets ----------------------------------------------------------------------------------

describe("stylesheets", () => {
  it("apply in the order named, after Folio's defaults and before each component's style; className picks their classes", async () => {
    const w = await createTestWorkspace();
    const brand = await seedFolder(w, "brand");
    const letters = await seedFolder(w, "letters", brand);
    await seedStylesheet(w, brand, "first.css", ".who::after{content:' FIRST'} .box{background:#ff0000} .f-text{color:#000}");
    await seedStylesheet(w, letters, "second.css", ".who::after{content:' SECOND'} .box{background:#0000ff;position:absolute;left:100px;top:300px;width:60px;height:60px}");
    await seedStylesheet(w, null, "shared.css", ".hidden{display:none} .tag::before{content:'TAGGED-'}");
    const id = await createTemplate(
      w,
      {
        composition: {
          root: container(
            text("Sheet", { className: "who" }),
            text("Gone", { className: "hidden" }),
            text("Both", { className: "tag  who" }),
            text("Inline wins", { className: "hidden", style: { display: "block" } }),
            { type: "container", className: "box", children: [] },
          ),
          stylesheets: ["../first.css", "second.css", "/shared.css"],
        },
      },
      "Styled",
      letters,
    );
    const { bytes, text: t } = await previewPdf(w, id);
    expect(t).toContain("Sheet SECOND");
    expect(t).not.toContain("FIRST");
    expect(t).not.toContain("Gone");
    expect(t).toContain("TAGGED-Both SECOND");
    expect(t).toContain("Inline wins");
    // The box is blue (the later stylesheet), not red: its middle is 10 mm + 130 px from the left and
    // 10 mm + 330 px from the top, 126 by 276 pixels at 72 dpi.
    const html = await previewHtml(w, id);
    expect(html.indexOf(".f-table tr")).toBeLessThan(html.indexOf(".who::after{content:' FIRST'}"));
    expect(html.indexOf("FIRST")).toBeLessThan(html.indexOf("SECOND"));
    const [r, g, b] = pdfPixel(bytes, 1, 126, 276);
    expect({ r, g, b }).toEqual({ r: 0, g: 0, b: 255 });
  });

  it("@import inlines other workspace stylesheets (with media), resolved from the importing stylesheet's folder; uploaded stylesheets work alike", async () => {
    const w = await createTestWorkspace();
    const base = await seedFolder(w, "base");
    await seedStylesheet(w, base, "tokens.css", ".a::before{content:'TOKENS-'}");
    await seedStylesheet(w, base, "screen.css", ".b::before{content:'SCREEN-'}");
    await seedStylesheet(w, base, "print.css", ".c::before{content:'PRINT-'}");
    await seedStylesheet(w, base, "all.css", `@charset "utf-8";\n@import "tokens.css";\n@import url('screen.css') screen;\n@import url(print.css) print;\n.d::before{content:'ALL-'}`);
    await seedStylesheet(w, null, "main.css", '@import "base/all.css";');
    // An uploaded stylesheet (an asset-backed file, read from the file store) that imports a text one.
    const css = Buffer.from('@import "base/tokens.css";\n.e::before{content:"UPLOADED-"}');
    const uploaded = await seedAsset(w, { kind: "stylesheet", filename: "uploaded.css", mediaType: "text/css", bytes: css });
    await seedAssetFile(w, null, "uploaded.css", uploaded);
    const id = await createTemplate(w, {
      composition: { root: container(text("a", { className: "a" }), text("b", { className: "b" }), text("c", { className: "c" }), text("d", { className: "d" }), text("e", { className: "e" })), stylesheets: ["main.css", "uploaded.css"] },
    });
    const { text: t } = await previewPdf(w, id);
    expect(t).toContain("UPLOADED-e");
    expect(t).toContain("TOKENS-a");
    expect(t).not.toContain("SCREEN-b"); // a PDF is printed: screen rules do not apply
    expect(t).toContain("PRINT-c");
    expect(t).toContain("ALL-d");
    const html = await previewHtml(w, id);
    expect(html).not.toContain("@import");
    expect(html).toContain("@media screen{");
  });

  it("url() of an uploaded font becomes an asset URL: the PDF embeds the font", async () => {
    const w = await createTestWorkspace();
    const brand = await seedFolder(w, "brand");
    const fonts = await seedFolder(w, "fonts", brand);
    const woff2 = fontsourceFile("merriweather", "merriweather-latin-400-normal.woff2");
    const font = await seedAsset(w, { kind: "font", filename: "Merriweather.woff2", mediaType: "font/woff2", bytes: woff2 });
    await seedAssetFile(w, fonts, "Merriweather Regular.woff2", font);
    await seedStylesheet(w, brand, "type.css", `@font-face{font-family:"Brand Serif";src:url("fonts/Merriweather%20Regular.woff2") format("woff2")} body{font-family:"Brand Serif"}`);
    const id = await createTemplate(w, { composition: { root: text("Set in the brand's serif"), stylesheets: ["brand/type.css"] } });
    const html = await previewHtml(w, id);
    expect(html).toContain(`src:url("http://assets.invalid/${sha256(woff2)}") format("woff2")`);
    const prepared = await fromDraft(systemCtx(w.id, "test"), id, {}, undefined);
    expect(prepared.assets?.map((a) => a.label)).toEqual(["brand/fonts/Merriweather Regular.woff2"]);
    const { bytes, text: t } = await previewPdf(w, id);
    expect(t).toContain("Set in the brand's serif");
    expect(pdfFonts(bytes).some((f) => /Merriweather/i.test(f))).toBe(true);
  });

  it("answers 400 ASSET_INVALID naming the stylesheet and the path for unknown files, wrong types and import cycles", async () => {
    const w = await createTestWorkspace();
    const png = await seedAsset(w, { kind: "image", filename: "p.png", mediaType: "image/png", bytes: await solidPng(2, 2, [0, 0, 0]) });
    await seedAssetFile(w, null, "p.png", png);
    await seedStylesheet(w, null, "bad.css", "@import 'missing.css'; .x{background:url(img/none.png)} .y{background:url(other.css)}");
    await seedStylesheet(w, null, "other.css", ".o{}");
    await seedStylesheet(w, null, "a.css", "@import 'b.css';");
    await seedStylesheet(w, null, "b.css", "@import 'a.css';");
    const missing = await createTemplate(w, { composition: { root: text("x"), stylesheets: ["nope.css", "p.png", "../up.css"] } });
    let e = errorOf(await preview(w, missing), 400, "ASSET_INVALID");
    expect(paths(e)).toEqual(["composition.stylesheets.0", "composition.stylesheets.1", "composition.stylesheets.2"]);
    expect(messages(e)).toContain("nope.css: no workspace file nope.css");
    expect(messages(e)).toContain("p.png is not a stylesheet (image/png)");
    const refs = await createTemplate(w, { composition: { root: text("x"), stylesheets: ["other.css", "bad.css"] } });
    e = errorOf(await preview(w, refs), 400, "ASSET_INVALID");
    expect(paths(e)).toEqual(["composition.stylesheets.1", "composition.stylesheets.1", "composition.stylesheets.1"]);
    expect(messages(e)).toContain("bad.css: @import of missing.css names no workspace file (missing.css)");
    expect(messages(e)).toContain("bad.css: url() of img/none.png names no workspace file (img/none.png)");
    expect(messages(e)).toContain("bad.css: url() of other.css names other.css, a text file");
    const cycle = await createTemplate(w, { composition: { root: text("x"), stylesheets: ["a.css"] } });
    e = errorOf(await preview(w, cycle), 400, "ASSET_INVALID");
    expect(e.message).toContain("a.css imports itself: a.css -> b.css -> a.css");
    // A data: URL and an outside address are left alone (the page reaches no network anyway).
    await seedStylesheet(w, null, "outside.css", ".q{background:url(data:image/png;base64,AAAA)} .r{background:url(https://example.com/x.png)}");
    const outside = await createTemplate(w, { composition: { root: text("outside ok"), stylesheets: ["outside.css"] } });
    expect(await previewHtml(w, outside)).toContain("url(https://example.com/x.png)");
  });
});

// --- limits ---------------------------------------------------------------------------------------

describe("template limits at preview and publish", () => {
  // why 120 s: it seeds over 600 files and assets; on a loaded machine that outlasts the default.
  it("100 referenced workspace files, 20 import levels, 5 MB of source, 500 fonts and images, 20 MiB together", { timeout: 120_000 }, async () => {
    const w = await createTestWorkspace();
    // 101 files: one stylesheet importing 100 others (seeded a few at a time: they are independent).
    await inBatches(100, (i) => seedStylesheet(w, null, `s${i}.css`, `.s${i}{}`));
    await seedStylesheet(w, null, "many.css", Array.from({ length: 100 }, (_, i) => `@import "s${i}.css";`).join("\n"));
    const many = await createTemplate(w, { composition: { root: text("x"), stylesheets: ["many.css"] } });
    let e = errorOf(await preview(w, many), 400, "LIMIT_EXCEEDED");
    expect(e.message).toContain("workspace files one template references");
    expect(expectError(await api(`/v1/templates/${many}/versions`, { key: w.key, body: { expectedRevision: 1 } }), 400, "LIMIT_EXCEEDED").message).toContain("100");

    // 22 levels of imports.
    for (let i = 0; i < 22; i++) await seedStylesheet(w, null, `deep${i}.css`, i < 21 ? `@import "deep${i + 1}.css";` : ".deep{}");
    const deep = await createTemplate(w, { composition: { root: text("x"), stylesheets: ["deep0.css"] } });
    e = errorOf(await preview(w, deep), 400, "LIMIT_EXCEEDED");
    expect(e.message).toContain("nest deeper than 20 levels");

    // Six stylesheets of 900,000 characters: over 5 MB of source with included files.
    const big = `.big{content:"${"x".repeat(899_980)}"}`;
    for (let i = 0; i < 6; i++) await seedStylesheet(w, null, `big${i}.css`, big);
    const heavy = await createTemplate(w, { composition: { root: text("x"), stylesheets: Array.from({ length: 6 }, (_, i) => `big${i}.css`) } });
    e = errorOf(await preview(w, heavy), 400, "LIMIT_EXCEEDED");
    expect(e.message).toContain("5 MB");

    // 501 images.
    const ids = await inBatches(501, (i) => seedAsset(w, { kind: "image", filename: `i${i}.png`, mediaType: "image/png", bytes: Buffer.from(`not really a png ${i}`) }));
    const hidden = { visibleWhen: { path: ["never"], operator: "exists" } };
    const crowded = await createTemplate(w, { composition: { root: container(...ids.map((id) => image(id, hidden))) } });
    e = errorOf(await preview(w, crowded), 400, "LIMIT_EXCEEDED");
    expect(e.message).toContain("at most 500 (the limit of fonts and images per template)");

    // Two images of 11 MiB each: over 20 MiB together.
    const large = [1, 2].map((n) => Buffer.alloc(11 * 1024 * 1024, n));
    const largeIds = [];
    for (const [i, bytes] of large.entries()) largeIds.push(await seedAsset(w, { kind: "image", filename: `large${i}.png`, mediaType: "image/png", bytes }));
    const weighty = await createTemplate(w, { composition: { root: container(...largeIds.map((id) => image(id, hidden))) } });
    e = errorOf(await preview(w, weighty), 400, "LIMIT_EXCEEDED");
    expect(e.message).toContain("at most 20 MiB together");
  });
});

// --- versions ---------------------------------------------------------------------------------------

describe("published versions keep what they copied (spec: Versioning 5)", () => {
  it("renders a version the same after its image asset is deleted and its stylesheet is edited", async () => {
    const w = await createTestWorkspace();
    const png = await solidPng(24, 12, [10, 200, 10]);
    const logo = await seedAsset(w, { kind: "image", filename: "logo.png", mediaType: "image/png", bytes: png });
    const sheet = await seedStylesheet(w, null, "look.css", ".who::after{content:' ORIGINAL'}");
    const id = await createTemplate(w, { composition: { root: container(image(logo, { width: 48 }), text("Style", { className: "who" })), stylesheets: ["look.css"] } });
    const versionId = await publish(w, id);
    const before = await renderVersion(w, versionId);
    expect(before.text).toContain("Style ORIGINAL");
    expect(pdfImages(before.bytes)).toEqual([{ page: 1, width: 24, height: 12 }]);

    // The draft stops using the image (an asset a draft uses cannot be deleted), the asset is
    // deleted, and the stylesheet is edited.
    const saved = await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { expectedRevision: 1, content: { composition: { root: text("Style", { className: "who" }), stylesheets: ["look.css"] } } } });
    expect(saved.status, saved.text).toBe(200);
    await deleteAsset(w, logo);
    expect((await api(`/v1/assets/${logo}`, { key: w.key })).status).toBe(404);
    await editStylesheet(w, sheet, ".who::after{content:' EDITED'}");

    const after = await renderVersion(w, versionId);
    expect(after.text).toBe(before.text);
    expect(pdfImages(after.bytes)).toEqual(pdfImages(before.bytes));
    // The draft sees the edit at once.
    expect(await previewHtml(w, id)).toContain("EDITED");
  });

  it("deleting templates releases the stored files only their versions held, one by one or in bulk", async () => {
    const w = await createTestWorkspace();
    const only = await solidPng(9, 9, [1, 2, 3]);
    const shared = await solidPng(7, 7, [4, 5, 6]);
    const onlyId = await seedAsset(w, { kind: "image", filename: "only.png", mediaType: "image/png", bytes: only });
    const sharedId = await seedAsset(w, { kind: "image", filename: "shared.png", mediaType: "image/png", bytes: shared });
    const a = await createTemplate(w, { composition: { root: container(image(onlyId), image(sharedId)) } }, "A");
    const b = await createTemplate(w, { composition: { root: image(sharedId) } }, "B");
    await publish(w, a);
    await publish(w, b);
    // The drafts let go of the images and the first asset is deleted: only the versions hold its file.
    for (const id of [a, b]) {
      const res = await api(`/v1/templates/${id}/draft`, { key: w.key, method: "PUT", body: { expectedRevision: 1, content: { composition: { root: text("none") } } } });
      expect(res.status, res.text).toBe(200);
    }
    await deleteAsset(w, onlyId);
    expect(await storageBytes(db(), w.id)).toBe(only.byteLength + shared.byteLength);
    const onlyKey = blobKey(w.id, sha256(only));
    expect(await fileStore().get(onlyKey)).not.toBeNull();

    expect((await api(`/v1/templates/${a}`, { key: w.key, method: "DELETE" })).status).toBe(200);
    expect(await storageBytes(db(), w.id)).toBe(shared.byteLength); // the shared file still has its asset
    await expect.poll(async () => (await fileStore().get(onlyKey)) === null, { timeout: 30_000 }).toBe(true);

    await deleteAsset(w, sharedId);
    expect(await storageBytes(db(), w.id)).toBe(shared.byteLength); // version B holds it
    expect((await api("/v1/templates/delete", { key: w.key, body: { ids: [b] } })).status).toBe(200);
    expect(await storageBytes(db(), w.id)).toBe(0);
  });
});

// --- translations ---------------------------------------------------------------------------------

describe("translation files", () => {
  const content = {
    composition: {
      root: container(text({ path: ["localization", "greeting"] }), text({ parts: ["Total: ", { path: ["localization", "total"], fallback: "-" }] })),
      footer: "<span>{{localization.greeting}} footer</span>",
    },
    settings: { locale: "de-AT" },
    translations: { de: { greeting: "Hallo", total: "Summe" }, "de-CH": { greeting: "Grüezi" }, en: { greeting: "Hello" } },
  };

  it("adds the file of the render language as localization (exact, then the language), unless the data has that key", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w, content, "Letters");
    const versionId = await publish(w, id);
    // Page settings de-AT: no file of its own, so de.
    expect((await renderVersion(w, versionId)).text).toContain("Hallo Total: Summe");
    // Previews take the request's locale: exact de-CH (its own file, total falls back).
    expect((await previewPdf(w, id, { locale: "de-CH" })).text).toContain("Grüezi Total: -");
    expect((await previewPdf(w, id, { locale: "en-GB" })).text).toContain("Hello Total: -");
    // The data's own localization wins.
    expect((await previewPdf(w, id, { data: { localization: { greeting: "Mine", total: "Own" } } })).text).toContain("Mine Total: Own");
    // Reports API with a locale; no file for fr: the binding has no value.
    const report = await fetch(`${inject("baseUrl")}/v1/reports/render`, {
      method: "POST",
      headers: { "x-api-key": w.key, "content-type": "application/json" },
      body: JSON.stringify({ format: "html", template: { name: "Letters" }, locale: "de-CH-1996" }),
    });
    expect(await report.text()).toContain("Grüezi");
    const fr = await api("/v1/reports/render", { key: w.key, body: { format: "html", template: { name: "Letters" }, locale: "fr" } });
    expect(paths(expectError(fr, 400, "BAD_REQUEST"))).toEqual(["localization.greeting"]);
  });

  it("shows the translation in the page footer too", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w, content);
    expect((await previewPdf(w, id)).text).toContain("Hallo footer");
  });
});

// --- title ------------------------------------------------------------------------------------------

describe("document title", () => {
  it("defaults to the template's name (the version's name when published); settings.title wins", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w, { composition: { root: text("t") } }, "Quarterly Invoice");
    const versionId = await publish(w, id);
    await api(`/v1/templates/${id}`, { key: w.key, method: "PATCH", body: { name: "Renamed Later" } });
    expect(pdfInfo((await renderVersion(w, versionId)).bytes).Title).toBe("Quarterly Invoice");
    expect(pdfInfo((await previewPdf(w, id)).bytes).Title).toBe("Renamed Later");
    const titled = await createTemplate(w, { composition: { root: text("t") }, settings: { title: "Set In Settings" } }, "Ignored Name");
    expect(pdfInfo((await previewPdf(w, titled)).bytes).Title).toBe("Set In Settings");
  });
});
