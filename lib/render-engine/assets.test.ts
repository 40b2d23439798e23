import crypto from "node:crypto";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetUrl, blobKey, type AssetRef } from "@/lib/documents/asset-refs";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { fileStore } from "@/lib/files/store";
import { resolveSettings, type PageSettings } from "@/lib/documents/page-settings";
import { insertRender } from "@/lib/renders/statements";
import { uploadAsset } from "@/lib/testing/assets";
import { createTestWorkspace } from "@/lib/testing/factories";
import { jpeg, png, readFont } from "@/lib/testing/images";
import { pdfFonts, pdfImages, pdfText } from "@/lib/testing/pdf";
import { createRender, download, waitForState } from "@/lib/testing/renders";
import { clearAssetCache } from "./assets";
import { BrowserPool } from "./browser";
import { RenderFailure } from "./errors";
import { renderDocument, type RenderJob, type RenderOutput } from "./render";

// The render engine with a render's files: loaded from the real file store, answered to the page
// by the worker, sniffed against their media types, fonts parsed, and the page's own verdict on
// images and fonts. These run the worker's code (BrowserPool, renderDocument) in this process on
// the real Chromium; what the API adds (assetIds, templates) is tested with the API.

const WS = `ws_assets${crypto.randomBytes(4).toString("hex")}`;
let pool: BrowserPool;

beforeAll(async () => {
  pool = new BrowserPool(1);
  await pool.start();
});

afterAll(async () => {
  await pool?.acquire(); // a page still being reset in the background would fail noisily under close
  await pool?.close();
});

/** Stores bytes as a workspace blob would be stored, and returns the render's reference to them. */
async function stored(bytes: Buffer, mediaType: string, label: string, name = label): Promise<AssetRef> {
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  const key = blobKey(WS, sha256);
  await fileStore().put(key, bytes, mediaType);
  return { name, key, mediaType, size: bytes.length, sha256, label };
}

let n = 0;
function render(html: string, assets?: AssetRef[], more: Partial<RenderJob> & { settings?: PageSettings } = {}): Promise<RenderOutput> {
  const { settings, ...rest } = more;
  const job: RenderJob = { renderId: `rnd_assets${n++}`, attempt: 1, html, settings: resolveSettings(settings), format: "pdf", test: false, assets, ...rest };
  return renderDocument(pool, job, AbortSignal.timeout(40_000));
}

/** The RenderFailure a render ends with (it must fail). */
async function failure(p: Promise<unknown>): Promise<RenderFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, "the render should have failed").toBeInstanceOf(RenderFailure);
  return e as RenderFailure;
}

const fontFace = (family: string, name: string) => `@font-face { font-family: "${family}"; src: url("${assetUrl(name)}"); }`;

describe("a render's files served to the page", () => {
  it("shows an image and draws text in a font from the render's assets, and applies its stylesheet", async () => {
    const logo = await stored(png(120, 40), "image/png", "ast_logo");
    const photo = await stored(await jpeg(64, 48), "image/jpeg", "ast_photo");
    const svg = await stored(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="30"><circle cx="15" cy="15" r="10" fill="red"/></svg>'), "image/svg+xml", "ast_svg");
    const inter = await stored(readFont("interWoff2"), "font/woff2", "ast_inter");
    const merri = await stored(readFont("merriweatherWoff2"), "font/woff2", "brand/fonts/Merriweather.woff2", "b".repeat(64));
    const css = await stored(Buffer.from(`${fontFace("Merri", merri.name)} .serif { font-family: "Merri"; }`), "text/css", "brand/print.css", "c".repeat(64));
    const out = await render(
      `<style>${fontFace("Brand", inter.name)} body { font-family: "Brand"; }</style>
       <link rel="stylesheet" href="${assetUrl(css.name)}">
       <p>Invoice in Inter</p><p class="serif">Serif from the stylesheet</p>
       <img src="${assetUrl(logo.name)}"><img src="${assetUrl(photo.name)}"><img src="${assetUrl(svg.name)}">`,
      [logo, photo, svg, inter, merri, css],
    );
    expect(pdfText(out.bytes)).toContain("Invoice in Inter");
    const fonts = pdfFonts(out.bytes);
    expect(fonts.some((f) => /Inter/.test(f)), fonts.join()).toBe(true);
    expect(fonts.some((f) => /Merriweather/.test(f)), fonts.join()).toBe(true);
    const images = pdfImages(out.bytes);
    expect(images).toContainEqual({ page: 1, width: 120, height: 40 });
    expect(images).toContainEqual({ page: 1, width: 64, height: 48 });
    expect(out.warnings).toBeUndefined();
  });

  it("answers only the render's own names: another render's file, or an unknown name, is refused", async () => {
    const mine = await stored(png(10, 10, [0, 200, 0]), "image/png", "ast_mine");
    const other = await stored(png(11, 11, [200, 0, 0]), "image/png", "ast_other");
    await render(`<img src="${assetUrl(other.name)}">`, [other]);
    const out = await render(`<img src="${assetUrl(mine.name)}"><img src="${assetUrl(other.name)}" alt=""><img src="${assetUrl("ast_nothing")}" alt="">`, [mine]);
    expect(pdfImages(out.bytes)).toEqual([{ page: 1, width: 10, height: 10 }]);
  });

  it("counts the files in the input limit, each stored file once", async () => {
    const big = { name: "ast_big", key: blobKey(WS, "f".repeat(64)), mediaType: "image/png", size: 6 * 1024 * 1024, sha256: "f".repeat(64), label: "ast_big" };
    const e = await failure(render("<p>x</p>", [big, { ...big, name: "ast_big2" }, { ...big, name: "ast_big3", key: blobKey(WS, "e".repeat(64)) }]));
    expect(e).toMatchObject({ code: "LIMIT_EXCEEDED", diagnostic: "max_input_bytes" });
    expect(e.message).toBe(`The document and its files are ${8 + 12 * 1024 * 1024} bytes; the limit is ${10 * 1024 * 1024}`);
  });

  it("fails with ASSET_INVALID naming the file when a stored file is gone", async () => {
    const gone = { name: "ast_gone", key: blobKey(WS, "0".repeat(64)), mediaType: "font/woff2", size: 10, sha256: "0".repeat(64), label: "ast_gone" };
    const e = await failure(render("<p>x</p>", [gone]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "font_invalid", message: "Font ast_gone is no longer stored" });
  });
});

describe("files whose bytes do not match their media type fail the render (ASSET_INVALID)", () => {
  it("an image of another format: image_invalid naming the file", async () => {
    const jpg = await stored(await jpeg(8, 8), "image/png", "brand/logo.png", "d".repeat(64));
    const e = await failure(render(`<img src="${assetUrl(jpg.name)}">`, [jpg]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "image_invalid", message: "Image brand/logo.png is declared as image/png but holds a JPEG image" });
  });

  it("a font of another format: font_invalid, and every bad file is named", async () => {
    const woff2 = await stored(readFont("interWoff2"), "font/ttf", "ast_font");
    const notSvg = await stored(Buffer.from("<html></html>"), "image/svg+xml", "ast_svgx");
    const e = await failure(render("<p>x</p>", [notSvg, woff2]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "font_invalid" });
    expect(e.message).toBe("Image ast_svgx is declared as image/svg+xml but its root element is not <svg>; Font ast_font is declared as font/ttf but holds a WOFF2 font");
  });

  it("a stylesheet that is not UTF-8 text: document_invalid", async () => {
    const css = await stored(Buffer.from([0x70, 0x7b, 0xff, 0xfe, 0x7d]), "text/css", "brand/print.css", "e".repeat(64));
    const e = await failure(render("<p>x</p>", [css]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "document_invalid", message: "Stylesheet brand/print.css is not valid UTF-8 text" });
  });
});

describe("damaged files fail the render (ASSET_INVALID)", () => {
  it("a font cut short: font_invalid from its table directory", async () => {
    const ttf = readFont("dejaVuTtf");
    const cut = await stored(ttf.subarray(0, Math.floor(ttf.length / 2)), "font/ttf", "ast_cut");
    const e = await failure(render(`<style>${fontFace("Cut", cut.name)}</style><p style="font-family: Cut">x</p>`, [cut]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "font_invalid" });
    expect(e.message).toMatch(/^Font ast_cut is damaged: its font table ".{4}" lies past the end of the file/);
  });

  it("a font with a valid header and directory but zeroed tables: font_invalid from parsing it", async () => {
    const ttf = Buffer.from(readFont("dejaVuTtf"));
    ttf.fill(0, 2000, ttf.length - 2000);
    const zeroed = await stored(ttf, "font/ttf", "ast_zeroed");
    const e = await failure(render(`<p>x</p>`, [zeroed]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "font_invalid" });
    expect(e.message).toMatch(/^Font ast_zeroed is damaged: /);
  });

  it("a WOFF2 font with its compressed tables overwritten: font_invalid", async () => {
    const woff2 = Buffer.from(readFont("interWoff2"));
    crypto.randomFillSync(woff2, 200, 2000);
    const broken = await stored(woff2, "font/woff2", "ast_woff2");
    const e = await failure(render(`<p>x</p>`, [broken]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "font_invalid" });
    expect(e.message).toMatch(/^Font ast_woff2 is damaged: /);
  });

  it("a font the parser reads but the browser refuses (a broken head table): font_invalid from the page", async () => {
    const ttf = Buffer.from(readFont("dejaVuTtf"));
    // The head table's magic number (offset 12 in the table), which the browser's sanitiser checks.
    const tables = ttf.readUInt16BE(4);
    let head = -1;
    for (let i = 0; i < tables; i++) if (ttf.toString("latin1", 12 + 16 * i, 16 + 16 * i) === "head") head = ttf.readUInt32BE(12 + 16 * i + 8);
    ttf.writeUInt32BE(0x12345678, head + 12);
    const refused = await stored(ttf, "font/ttf", "brand/fonts/Refused.ttf", "f".repeat(64));
    const fine = await stored(readFont("interWoff2"), "font/woff2", "ast_fine");
    const e = await failure(
      render(`<style>${fontFace("R", refused.name)}${fontFace("F", fine.name)}</style><p style="font-family: R">refused</p><p style="font-family: F">fine</p>`, [refused, fine]),
    );
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "font_invalid", message: "Font brand/fonts/Refused.ttf is damaged: the browser refused it" });
  });

  it("an image with garbage after a valid PNG header: image_invalid", async () => {
    const good = png(20, 20);
    const bad = await stored(Buffer.concat([good.subarray(0, 33), crypto.randomBytes(300)]), "image/png", "ast_garbage");
    const e = await failure(render(`<img src="${assetUrl(bad.name)}">`, [bad]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "image_invalid" });
    expect(e.message).toMatch(/^Image ast_garbage is damaged: its PNG chunk .* runs past the end of the file$/);
  });

  it("a PNG whose chunks are sound but whose pixel data is not the image's: image_invalid", async () => {
    const bad = await stored(png(20, 20, undefined, zlib.deflateSync(Buffer.from("not pixels"))), "image/png", "ast_pixels");
    const e = await failure(render(`<img src="${assetUrl(bad.name)}">`, [bad]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "image_invalid", message: "Image ast_pixels is damaged: its PNG image data is shorter than the image" });
  });

  it("an image the browser cannot decode (an SVG that is not well-formed): image_invalid from the page", async () => {
    const svg = await stored(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"></svg>'), "image/svg+xml", "brand/logo.svg", "9".repeat(64));
    const fine = await stored(png(9, 9), "image/png", "ast_fine_png");
    const e = await failure(render(`<img src="${assetUrl(fine.name)}"><img src="${assetUrl(svg.name)}" alt="">`, [fine, svg]));
    expect(e).toMatchObject({ code: "ASSET_INVALID", diagnostic: "image_invalid", message: "Image brand/logo.svg cannot be decoded: it is damaged" });
  });

  it("a font that is listed but never used is still checked; a page that loads nothing of its files renders", async () => {
    const cut = await stored(readFont("interWoff2").subarray(0, 100), "font/woff2", "ast_unused");
    expect((await failure(render("<p>x</p>", [cut]))).diagnostic).toBe("font_invalid");
    const fine = await stored(png(5, 5), "image/png", "ast_unshown");
    expect(pdfText((await render("<p>nothing shown</p>", [fine])).bytes)).toContain("nothing shown");
  });

  it("a file checked once is not loaded again: the cache answers the next render", async () => {
    const ref = await stored(png(7, 7), "image/png", "ast_cached");
    clearAssetCache();
    await render(`<img src="${assetUrl(ref.name)}">`, [ref]);
    await fileStore().delete([ref.key]);
    const out = await render(`<img src="${assetUrl(ref.name)}">`, [ref]);
    expect(pdfImages(out.bytes)).toEqual([{ page: 1, width: 7, height: 7 }]);
  });
});

describe("through the worker: a render's input carries its files", () => {
  // The render row and its input are written here as the API writes them (assetIds and templates
  // resolve to the same `assets` list): the worker process loads, checks and serves them.
  it("succeeds with the image and font in the PDF, or fails with ASSET_INVALID on the record", async () => {
    const w = await createTestWorkspace();
    const put = async (bytes: Buffer, mediaType: string, label: string) => {
      const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
      await fileStore().put(blobKey(w.id, sha256), bytes, mediaType);
      return { name: label, key: blobKey(w.id, sha256), mediaType, size: bytes.length, sha256, label };
    };
    const logo = await put(png(90, 30), "image/png", "ast_wlogo");
    const font = await put(readFont("merriweatherWoff2"), "font/woff2", "ast_wfont");
    const queue = async (html: string, assets: AssetRef[]) => {
      const id = newId("rnd");
      await insertRender(db(), { id, workspaceId: w.id, test: false, source: "document", format: "pdf", options: {} }, { document: { html }, assets });
      return (await waitForState(w.key, id, undefined, { timeout: 40_000 })) as { state: string; result?: { downloadUrl: string }; error?: unknown };
    };
    const ok = await queue(`<style>${fontFace("M", font.name)} p { font-family: M; }</style><p>Worker text</p><img src="${assetUrl(logo.name)}">`, [logo, font]);
    expect(ok.state, JSON.stringify(ok.error)).toBe("succeeded");
    const pdf = (await download(ok.result!.downloadUrl)).bytes;
    expect(pdfText(pdf)).toContain("Worker text");
    expect(pdfImages(pdf)).toContainEqual({ page: 1, width: 90, height: 30 });
    expect(pdfFonts(pdf).some((f) => /Merriweather/.test(f))).toBe(true);

    const wrong = await put(png(4, 4), "font/woff2", "brand/fonts/Fake.woff2");
    const failed = await queue("<p>x</p>", [wrong]);
    expect(failed).toMatchObject({
      state: "failed",
      error: { code: "ASSET_INVALID", diagnostic: "font_invalid", message: "Font brand/fonts/Fake.woff2 is declared as font/woff2 but holds a PNG image" },
    });
  });
});

describe("through the API: caller HTML with document.assetIds", () => {
  it("uploaded image and font appear in the PDF (image XObject, embedded font); a file whose bytes are not its type fails the render", async () => {
    const w = await createTestWorkspace();
    const [logo, font, fake, fakeFont] = await Promise.all([
      uploadAsset(w.key, { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: png(150, 50) }),
      uploadAsset(w.key, { kind: "font", mediaType: "font/woff2", filename: "Inter.woff2", bytes: readFont("interWoff2") }),
      uploadAsset(w.key, { kind: "image", mediaType: "image/png", filename: "photo.png", bytes: await jpeg(30, 30) }),
      uploadAsset(w.key, { kind: "font", mediaType: "font/ttf", filename: "Broken.ttf", bytes: readFont("dejaVuTtf").subarray(0, 30_000) }),
    ]);
    const ended = async (document: Record<string, unknown>) => {
      const res = await createRender(w.key, { document, waitMs: 20_000 });
      expect([200, 202], res.text).toContain(res.status);
      return (res.status === 200 ? res.body : await waitForState(w.key, res.body.id, undefined, { timeout: 40_000 })) as {
        state: string;
        result?: { downloadUrl: string; warnings?: unknown };
        error?: { code: string; diagnostic: string; message: string };
      };
    };
    const ok = await ended({
      html: `<style>${fontFace("Brand", font.id)} body { font-family: Brand; }</style><h1>Branded invoice</h1><img src="${assetUrl(logo.id)}">`,
      assetIds: [logo.id, font.id],
    });
    expect(ok.state, JSON.stringify(ok.error)).toBe("succeeded");
    const pdf = (await download(ok.result!.downloadUrl)).bytes;
    expect(pdfText(pdf)).toContain("Branded invoice");
    expect(pdfImages(pdf)).toContainEqual({ page: 1, width: 150, height: 50 });
    expect(pdfFonts(pdf).some((f) => /Inter/.test(f)), pdfFonts(pdf).join()).toBe(true);
    expect(ok.result).not.toHaveProperty("warnings");

    const wrongType = await ended({ html: `<img src="${assetUrl(fake.id)}">`, assetIds: [fake.id] });
    expect(wrongType).toMatchObject({ state: "failed", error: { code: "ASSET_INVALID", diagnostic: "image_invalid", message: `Image ${fake.id} is declared as image/png but holds a JPEG image` } });
    const damaged = await ended({ html: "<p>x</p>", assetIds: [fakeFont.id] });
    expect(damaged).toMatchObject({ state: "failed", error: { code: "ASSET_INVALID", diagnostic: "font_invalid" } });
    expect(damaged.error!.message).toMatch(new RegExp(`^Font ${fakeFont.id} is damaged: `));
  });
});
