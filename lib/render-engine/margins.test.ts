import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { resolveSettings, type PageSettings } from "@/lib/documents/page-settings";
import { png } from "@/lib/testing/images";
import { pdfFonts, pdfImages, pdfInfo, pdfText, rawText } from "@/lib/testing/pdf";
import { BrowserPool } from "./browser";
import { RenderFailure } from "./errors";
import { rasterize } from "./raster";
import { imagePixels, renderDocument, type RenderJob } from "./render";

// Headers and footers drawn by the document itself (margins.ts): they use the body's fonts, images
// and stylesheets, carry page numbers of the whole document, and keep working with the watermark,
// pageRanges, image renders, tagged PDFs and the page limit. The renders run on a pool of their
// own through the worker's renderDocument; files the page loads are data: URLs here (fonts and
// images uploaded as assets are in margins-assets.test.ts).

const fontsDir = path.join(process.cwd(), "node_modules/@fontsource");
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;
const inter = dataUrl("font/woff2", fs.readFileSync(path.join(fontsDir, "inter/files/inter-latin-400-normal.woff2")));
const merriweather = dataUrl("font/woff2", fs.readFileSync(path.join(fontsDir, "merriweather/files/merriweather-latin-700-normal.woff2")));

const logo = dataUrl("image/png", png(47, 13, [200, 30, 30]));

/** The body's stylesheet: its fonts, and classes the header and footer use. */
const brandCss = `
  @font-face { font-family: BrandSans; src: url("${inter}") format("woff2"); }
  @font-face { font-family: BrandSerif; src: url("${merriweather}") format("woff2"); font-weight: 700; }
  body { font-family: BrandSans; }
  .masthead { font-family: BrandSerif; font-weight: 700; color: #1e40af; }
  .foot { display: flex; justify-content: space-between; align-items: center; font-family: BrandSans; }
`;

/** Pages, each with its own text, separated by CSS page breaks. */
const pages = (...texts: string[]) =>
  texts.map((t, i) => `<div style="${i < texts.length - 1 ? "break-after: page" : ""}">${t}</div>`).join("");

let pool: BrowserPool;

beforeAll(async () => {
  pool = new BrowserPool(1);
  await pool.start();
});

afterAll(async () => {
  await pool?.close();
});

type Job = Partial<Omit<RenderJob, "settings">> & { html: string; settings?: PageSettings };

async function render(job: Job) {
  const { settings, ...rest } = job;
  return renderDocument(pool, { renderId: "rnd_margins", attempt: 1, format: "pdf", test: false, ...rest, settings: resolveSettings(settings) }, AbortSignal.timeout(45_000));
}

/** The words of a page with their boxes (pdftotext -bbox), in points from the top left. */
function words(pdf: Uint8Array, page: number): { text: string; x: number; y: number; right: number; bottom: number }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-bbox-"));
  try {
    fs.writeFileSync(path.join(dir, "a.pdf"), pdf);
    const html = execFileSync("pdftotext", ["-bbox", "-f", String(page), "-l", String(page), path.join(dir, "a.pdf"), "-"], { encoding: "utf8" });
    return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      x: Number(m[1]),
      y: Number(m[2]),
      right: Number(m[3]),
      bottom: Number(m[4]),
      text: m[5]!,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

describe("headers and footers with the body's fonts, images and stylesheets", () => {
  const html = `<!doctype html><html><head><style>${brandCss}</style></head><body>${pages("first body", "second body", "third body")}</body></html>`;
  const header = `<div class="masthead">Acme Masthead</div>`;
  const footer = `<div class="foot"><img src="${logo}" alt="" style="height: 13px"><span>Page {{pageNumber}} of {{totalPages}}</span></div>`;
  let pdf: Uint8Array;

  beforeAll(async () => {
    const out = await render({ html, header, footer });
    expect(out.pageCount).toBe(3);
    pdf = out.bytes;
  });

  it("numbers every page of the whole document", () => {
    for (const p of [1, 2, 3]) {
      const text = squash(pdfText(pdf, p));
      expect(text).toContain(`Page ${p} of 3`);
      expect(text).toContain("Acme Masthead");
      expect(text).toContain(["first body", "second body", "third body"][p - 1]);
    }
    expect(pdfText(pdf)).not.toMatch(/\{\{|pageNumber|totalPages/);
  });

  it("embeds the body's web fonts: the footer's, and the header's through a class of the body's stylesheet", () => {
    const fonts = pdfFonts(pdf);
    expect(fonts.some((f) => /\+Inter-Regular$/.test(f))).toBe(true);
    // Only the header uses the serif (class masthead), so its presence proves the class applied there.
    expect(fonts.some((f) => /\+Merriweather/.test(f))).toBe(true);
  });

  it("draws the footer's image on every page", () => {
    const images = pdfImages(pdf).filter((i) => i.width === 47 && i.height === 13);
    expect(images.map((i) => i.page).sort()).toEqual([1, 2, 3]);
  });

  it("places them as Chromium's header template did: 15pt from the paper's edge, padded to the side margins", async () => {
    const out = await render({ html: "<p>geometry</p>", header: "<span>Top</span>", footer: "<span>Bottom</span>", settings: { margins: { topMm: 30, bottomMm: 25, leftMm: 15, rightMm: 20 } } });
    const w = words(out.bytes, 1);
    const top = w.find((x) => x.text === "Top")!;
    const bottom = w.find((x) => x.text === "Bottom")!;
    const pageHeight = 841.92;
    const leftPt = (15 / 25.4) * 72;
    expect(Math.abs(top.x - leftPt)).toBeLessThan(2);
    expect(top.y).toBeGreaterThan(13);
    expect(top.y).toBeLessThan(19);
    expect(pageHeight - bottom.bottom).toBeGreaterThan(13);
    expect(pageHeight - bottom.bottom).toBeLessThan(19);
    expect(Math.abs(bottom.x - leftPt)).toBeLessThan(2);
  });
});

describe("what the document's own CSS and scripts can do to them", () => {
  it("the body's backgrounds, @page rules and margin boxes neither cover the body nor repeat", async () => {
    const html = `<style>
      html { background: rgb(250, 250, 240); } body { background: rgb(240, 250, 250); margin: 40px; padding: 30px; display: grid; }
      body::before { content: "BEFORE-BODY"; }
      @page { margin: 25mm; background: rgb(255, 240, 240); @bottom-center { content: "box " counter(page) " of " counter(pages); } }
      div { border: 3px solid black; }
    </style>${pages("alpha body", "bravo body")}`;
    const out = await render({ html, header: "<div>Header Text</div>" });
    // The body as it prints without a header shows through, margins and all.
    const plain = await render({ html });
    for (const [fx, fy] of [[0.5, 0.5], [0.02, 0.5], [0.5, 0.98], [0.3, 0.2]]) expect(pixelAt(out.bytes, 2, fx!, fy!)).toEqual(pixelAt(plain.bytes, 2, fx!, fy!));
    expect(pixelAt(out.bytes, 1, 0.02, 0.5)).toEqual([255, 240, 240]);
    for (const p of [1, 2]) {
      const text = squash(pdfText(out.bytes, p));
      expect(text).toContain(["alpha body", "bravo body"][p - 1]);
      expect(text.match(/Header Text/g)).toHaveLength(1);
      expect(text.match(/box \d of 2/g)).toEqual([`box ${p} of 2`]);
      expect(text.match(/BEFORE-BODY/g)?.length ?? 0).toBeLessThanOrEqual(1);
    }
  });

  it("a script of the body that keeps changing the document does not reach them", async () => {
    const html = `<p>scripted body</p><script>
      setInterval(() => { document.body.innerHTML = "<p>rewritten</p>"; document.title = "x"; }, 0);
      addEventListener("beforeprint", () => { document.body.textContent = "beforeprint"; });
    </script>`;
    const out = await render({ html, footer: "<span>Footer {{pageNumber}}</span>" });
    const text = squash(pdfText(out.bytes, 1));
    expect(text).toContain("Footer 1");
    // The next render on the same warm page starts clean.
    const next = await render({ html: "<p>clean next</p>", header: "<b>next header</b>" });
    expect(squash(pdfText(next.bytes))).toMatch(/^next header clean next$/);
  });

  it("stylesheets anywhere in the document apply: a <link> and a <style> in its body, one added by its script", async () => {
    const css = (rule: string) => `data:text/css,${encodeURIComponent(rule)}`;
    const html = `<p>body</p>
      <div><link rel="stylesheet" href="${css(".from-link::after { content: 'by body link'; }")}"></div>
      <style>.from-style::after { content: "by body style"; }</style>
      <script>const s = document.createElement("style"); s.textContent = ".from-script::after { content: 'by script style'; }"; document.head.append(s);</script>`;
    const out = await render({ html, header: `<span class="from-link"></span> <span class="from-style"></span> <span class="from-script"></span>` });
    const text = squash(pdfText(out.bytes));
    for (const t of ["by body link", "by body style", "by script style"]) expect(text).toContain(t);
  });

  it("a script that breaks the DOM's own methods fails its render as document_invalid, not a retry", async () => {
    const html = `<p>x</p><script>Element.prototype.replaceWith = () => { throw new Error("no replaceWith here"); };</script>`;
    await expect(render({ html, header: "<b>h</b>" })).rejects.toMatchObject({ code: "RENDER_FAILED", diagnostic: "document_invalid", message: expect.stringContaining("no replaceWith here") });
  });

  it("their own data: stylesheet, @import and background image load before they are drawn", async () => {
    const css = (rule: string) => `data:text/css,${encodeURIComponent(rule)}`;
    const header = `<link rel="stylesheet" href="${css(".a::before { content: 'styled by link' }")}">
      <style>@import url("${css(".b::before { content: 'styled by import' }")}"); .c { display: inline-block; width: 47px; height: 13px; background: url("${logo}"); }</style>
      <span class="a"></span> <span class="b"></span> <span class="c"></span>`;
    const out = await render({ html: pages("one", "two"), header });
    for (const p of [1, 2]) {
      expect(pdfText(out.bytes, p)).toContain("styled by link");
      expect(pdfText(out.bytes, p)).toContain("styled by import");
    }
    expect(pdfImages(out.bytes).filter((i) => i.width === 47).map((i) => i.page).sort()).toEqual([1, 2]);
  });

  it("a @page rule that forces its margins with !important in a layer fails the render, naming the cause", async () => {
    const html = `<style>@layer x { @page { margin: 100mm 0 !important; } }</style>${pages("a", "b")}`;
    await expect(render({ html, header: "<span>h</span>" })).rejects.toMatchObject({ code: "RENDER_FAILED", diagnostic: "document_invalid" });
  });
});

describe("with the other render options", () => {
  const threePages = pages("alpha page", "bravo page", "charlie page");
  const footer = "<span>Page {{pageNumber}} of {{totalPages}}</span>";

  it("pageRanges keeps the page numbers of the whole document", async () => {
    const one = await render({ html: threePages, footer, pageRanges: "2" });
    expect(one.pageCount).toBe(1);
    expect(squash(pdfText(one.bytes))).toContain("Page 2 of 3");
    const two = await render({ html: threePages, footer, pageRanges: "3,1" });
    expect(squash(pdfText(two.bytes, 1))).toContain("Page 1 of 3");
    expect(squash(pdfText(two.bytes, 2))).toContain("Page 3 of 3");
    expect(pdfText(two.bytes, 2)).toContain("charlie page");
    // Without the page count, the document is not laid out a second time; numbers are still the document's.
    const numbersOnly = await render({ html: threePages, footer: "<span>No. {{pageNumber}}</span>", pageRanges: "2-3" });
    expect(squash(pdfText(numbersOnly.bytes, 1))).toContain("No. 2");
    expect(squash(pdfText(numbersOnly.bytes, 2))).toContain("No. 3");
  });

  it("the TEST watermark is stamped over them on every page", async () => {
    const out = await render({ html: threePages, footer, test: true });
    for (const p of [1, 2, 3]) {
      expect(rawText(out.bytes, p)).toContain("TEST");
      expect(squash(pdfText(out.bytes, p))).toContain(`Page ${p} of 3`);
    }
  });

  it("a tagged PDF stays tagged, the header and footer marked as pagination artifacts", async () => {
    const out = await render({ html: `<h1>Tagged</h1>${threePages}`, footer, settings: { tagged: true, outline: true } });
    expect(pdfInfo(out.bytes).Tagged).toBe("yes");
    const raw = Buffer.from(out.bytes).toString("latin1");
    expect(raw).toContain("/StructTreeRoot");
    expect(raw).toContain("/Outlines");
    expect(raw).toContain("/Artifact <</Type /Pagination>> BDC");
    expect(squash(pdfText(out.bytes, 3))).toContain("Page 3 of 3");
  });

  it("an image of page 2 shows page 2's header", async () => {
    const header = `<div style="display: flex; gap: 10px"><div style="width: 20px; height: 20px; background: rgb(255, 0, 0)"></div><span>Page {{pageNumber}} of {{totalPages}}</span></div>`;
    const image = await render({ html: threePages, header, format: "png", image: { page: 2, scale: 1 } });
    expect(image.pageCount).toBe(3);
    // The red block: 15pt (20px) from the top, at the left margin (10 mm, 38px).
    expect(decodePng(image.bytes).pixel(48, 30)).toEqual([255, 0, 0]);
    // Pixel for pixel the PDF's page 2, whose header reads "Page 2 of 3".
    const pdf = await render({ html: threePages, header });
    expect(squash(pdfText(pdf.bytes, 2))).toContain("Page 2 of 3");
    const page2 = await rasterize(pdf.bytes, "png", imagePixels(resolveSettings(undefined), 1), AbortSignal.timeout(20_000), 2);
    expect(Buffer.from(image.bytes).equals(page2)).toBe(true);
  });

  it("max_pages still counts the document's pages", async () => {
    process.env.RENDER_MAX_PAGES = "2";
    resetConfigForTests();
    try {
      await expect(render({ html: threePages, footer })).rejects.toMatchObject({ code: "LIMIT_EXCEEDED", diagnostic: "max_pages" });
      // Also when only a page of it is printed but its page count is shown.
      await expect(render({ html: threePages, footer, pageRanges: "1" })).rejects.toBeInstanceOf(RenderFailure);
    } finally {
      delete process.env.RENDER_MAX_PAGES;
      resetConfigForTests();
    }
  });
});

/** The RGB colour at a point (fractions of width and height) of a PDF page, rasterised by poppler at low resolution. */
function pixelAt(pdf: Uint8Array, page: number, fx: number, fy: number): [number, number, number] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-ppm-"));
  try {
    fs.writeFileSync(path.join(dir, "a.pdf"), pdf);
    const ppm = execFileSync("pdftoppm", ["-r", "20", "-f", String(page), "-l", String(page), "-singlefile", path.join(dir, "a.pdf")]);
    const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString("latin1"))!;
    const [width, height] = [Number(header[1]), Number(header[2])];
    const offset = header[0].length + (Math.floor(fy * height) * width + Math.floor(fx * width)) * 3;
    return [ppm[offset]!, ppm[offset + 1]!, ppm[offset + 2]!];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An 8-bit RGB PNG with unfiltered rows (as the worker writes them). */
function decodePng(bytes: Uint8Array) {
  const b = Buffer.from(bytes);
  const width = b.readUInt32BE(16);
  const idat: Buffer[] = [];
  for (let i = 8; i < b.length; ) {
    const len = b.readUInt32BE(i);
    if (b.toString("latin1", i + 4, i + 8) === "IDAT") idat.push(b.subarray(i + 8, i + 8 + len));
    i += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 3 + 1;
  return {
    pixel: (x: number, y: number): [number, number, number] => {
      expect(raw[y * stride]).toBe(0); // filter: none
      const o = y * stride + 1 + x * 3;
      return [raw[o]!, raw[o + 1]!, raw[o + 2]!];
    },
  };
}
