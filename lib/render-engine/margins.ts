/**
 * Page headers and footers drawn with the document's own fonts, images and stylesheets
 * (docs/architecture.md, "Headers and footers").
 *
 * Chromium's own header template is a document of its own that loads nothing, so it cannot use a
 * web font, an image or a stylesheet of the page. Instead, once the body is printed, its document
 * (still in the page, with its stylesheets parsed and its fonts loaded) gets a new body: one
 * page-sized box per page, each holding the header and the footer with that page's number. That
 * overlay is printed without margins, and each of its pages is drawn over the body page of the
 * same number (pdf-stamp.ts).
 */
import type { CDPSession } from "playwright-core";
import { ASSET_ORIGIN } from "../documents/asset-refs";
import { config } from "../config";
import { log } from "../log";
import type { ResolvedSettings } from "../documents/page-settings";
import type { Slot } from "./browser";
import { RenderFailure } from "./errors";
import type { LoadedAssets } from "./assets";
import { checkPageAssets, type PageReport } from "./page";
import { countPdfPages } from "./pdf";
import { PdfShapeError, stampPages } from "./pdf-stamp";
import { stampWithPdfLibInHelper } from "./helpers";
import { HelperLimitError } from "../offload/pool";

export type MarginsJob = {
  header?: string;
  footer?: string;
  settings: ResolvedSettings;
  pageRanges?: string;
  image?: { page: number };
};

/** Whether a render draws a header or footer. */
export const hasMargins = (job: Pick<MarginsJob, "header" | "footer">) => !!(job.header || job.footer);

/**
 * The page numbers (of the whole document, from 1) of the pages a print with these pageRanges
 * holds, in order: Chromium prints the selected pages in document order, each once, and leaves out
 * those past the end (so the first `printed` of the sorted selection).
 */
export function printedPageNumbers(pageRanges: string | undefined, printed: number): number[] {
  if (!pageRanges) return Array.from({ length: printed }, (_, i) => i + 1);
  const selected = new Set<number>();
  for (const part of pageRanges.split(",")) {
    const [a, b] = part.split("-").map((x) => Number(x.trim()));
    const last = Math.min(b ?? a!, a! + printed); // nothing past the printed count can be among the first `printed`
    for (let p = a!; p <= last; p++) selected.add(p);
  }
  return [...selected].sort((x, y) => x - y).slice(0, printed);
}

/** Whether the header or footer shows the page count (the placeholder, or an element of class totalPages). */
const usesTotalPages = (job: MarginsJob) => /totalPages/.test(`${job.header ?? ""}${job.footer ?? ""}`);

const MM_PER_INCH = 25.4;

/** The CSS of the overlay; its geometry is Chromium's header template's, so headers sit where they always have. */
function overlayCss(s: ResolvedSettings, page: { widthPx: number; heightPx: number }): string {
  const none = "content: none !important;";
  const boxes = [
    "top-left-corner", "top-left", "top-center", "top-right", "top-right-corner", "bottom-left-corner", "bottom-left", "bottom-center",
    "bottom-right", "bottom-right-corner", "left-top", "left-middle", "left-bottom", "right-top", "right-middle", "right-bottom",
  ];
  return `
@page { margin: 0 !important; background: none !important; ${boxes.map((b) => `@${b} { ${none} }`).join(" ")} }
@page :first { margin: 0 !important; } @page :left { margin: 0 !important; } @page :right { margin: 0 !important; } @page :blank { margin: 0 !important; }
html::before, html::after, body::before, body::after { content: none !important; display: none !important; }
folio-margins { display: block !important; margin: 0 !important; padding: 0 !important; border: 0 !important; position: static !important; }
folio-page { display: flex !important; flex-direction: column !important; width: ${page.widthPx}px !important; height: ${page.heightPx}px !important;
  overflow: hidden !important; break-after: page !important; break-inside: avoid !important; page: auto !important; position: relative !important;
  margin: 0 !important; padding: 0 !important; border: 0 !important; box-sizing: border-box !important; background: none !important; transform: none !important; }
folio-page:last-child { break-after: auto !important; }
folio-header, folio-footer { display: flex !important; flex: none !important; margin: 0 !important; border: 0 !important; box-sizing: content-box !important;
  position: static !important; }
folio-header { align-items: flex-start !important; padding: 15pt 0 0 !important; height: ${s.margins.topMm}mm !important; }
folio-footer { align-items: flex-end !important; padding: 0 0 15pt !important; height: ${s.margins.bottomMm}mm !important; }
folio-space { display: block !important; flex: auto !important; }
folio-margin { display: block !important; font-size: 10px; width: 100% !important; box-sizing: border-box !important;
  padding: 0 ${s.margins.rightMm}mm 0 ${s.margins.leftMm}mm !important; margin: 0 !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
`;
}

/**
 * The programs run in the page. Script execution is off there by then, so they wait only on
 * promises the browser settles itself (fonts.ready, decode, fetch): listeners and timers do not run.
 *
 * BUILD replaces the document's body with one holding the overlay, one page box per page number,
 * and waits for the header's and footer's own stylesheets. The head stays, with the document's
 * stylesheets parsed and its fonts loaded (stylesheets of the old body move there first). Why a new
 * body: the old one's layout is torn down at once, as the next render's document.open would do
 * anyway; hiding its content instead (display: none, content-visibility) cost more than printing
 * the overlay (about 60 ms of renderer CPU on the 20-page report, against 1 to 4 ms).
 */
const BUILD = `(async ({ header, footer, pages, total, css }) => {
  const doc = document;
  const root = doc.documentElement;
  const hop = () => fetch("data:,").then(() => {}, () => {});
  const force = (el, props) => { for (const [k, v] of props) el.style.setProperty(k, v, "important"); };
  const plain = [["margin", "0"], ["padding", "0"], ["border", "0"], ["background", "none"], ["transform", "none"], ["zoom", "1"], ["filter", "none"],
    ["opacity", "1"], ["overflow", "visible"], ["position", "static"], ["display", "block"], ["width", "auto"], ["height", "auto"], ["min-width", "0"],
    ["min-height", "0"], ["max-width", "none"], ["max-height", "none"], ["columns", "auto"], ["writing-mode", "horizontal-tb"], ["color-scheme", "light"],
    ["visibility", "visible"], ["contain", "none"], ["content-visibility", "visible"], ["translate", "none"], ["rotate", "none"], ["scale", "none"]];
  const head = doc.head ?? root.insertBefore(doc.createElement("head"), root.firstChild);
  const old = doc.body;
  const body = doc.createElement("body");
  const moved = old ? [...old.querySelectorAll('style, link[rel~="stylesheet" i]')] : [];
  if (old) {
    head.append(...moved);
    for (const a of old.attributes) body.setAttribute(a.name, a.value);
    old.replaceWith(body);
  } else root.append(body);
  for (const el of [root, body]) force(el, plain);
  // why first and without specificity: a font the document sets on html or body wins, and without one the default stays Chromium's for headers.
  const defaults = doc.createElement("style");
  defaults.textContent = ":where(html) { font-family: system-ui, sans-serif; }";
  head.prepend(defaults);
  const own = [];
  const parse = (html) => {
    const t = doc.createElement("template");
    t.innerHTML = html.replaceAll("{{pageNumber}}", '<span class="pageNumber"></span>').replaceAll("{{totalPages}}", '<span class="totalPages"></span>');
    for (const s of t.content.querySelectorAll('style, link[rel~="stylesheet" i]')) { own.push(s); s.remove(); }
    for (const img of t.content.querySelectorAll("img")) img.loading = "eager";
    return t.content;
  };
  const template = doc.createElement("folio-page");
  for (const [name, html] of [["folio-header", header], ["folio-space", null], ["folio-footer", footer]]) {
    const el = doc.createElement(name);
    if (html !== null) { const m = doc.createElement("folio-margin"); m.append(parse(html)); el.append(m); }
    template.append(el);
  }
  const style = doc.createElement("style");
  style.textContent = css;
  const overlay = doc.createElement("folio-margins");
  for (const p of pages) {
    const page = template.cloneNode(true);
    for (const e of page.querySelectorAll(".pageNumber")) e.textContent = String(p);
    for (const e of page.querySelectorAll(".totalPages")) e.textContent = total === null ? "" : String(total);
    overlay.append(page);
  }
  // The header's and footer's own stylesheets once (not once per page), before the overlay's rules.
  head.append(...own, style);
  body.append(overlay);
  // Their own stylesheets and imports loaded: a fetch answers once the request did, and the sheet follows.
  const waitSheet = async (href, loaded) => {
    if (!href || loaded()) return;
    if (!(await fetch(href, { mode: "no-cors" }).then(() => true, () => false))) return;
    for (let i = 0; i < 200 && !loaded(); i++) await hop();
  };
  // (A stylesheet link moved out of the old body loads again, from the memory cache.)
  await Promise.all([...moved, ...own].map((s) => (s.nodeName === "LINK" ? waitSheet(s.href, () => !!s.sheet) : null)));
  const imports = [];
  for (const s of own) {
    try { for (const r of s.sheet?.cssRules ?? []) if (r instanceof CSSImportRule) imports.push(r); } catch {}
  }
  await Promise.all(imports.map((r) => waitSheet(r.href, () => { try { return !!r.styleSheet?.cssRules; } catch { return true; } })));
})`;

/**
 * SETTLE runs under print media: layout starts the loads of the fonts in use; then it waits for
 * them, the images, and the CSS images (backgrounds, list markers, content) of the first page box
 * (all are alike but for their numbers). It reports as the body's page script does (page.ts):
 * images of the render's files that did not decode, and whether a web font failed.
 */
const SETTLE = `(async (prefix) => {
  const doc = document;
  const overlay = doc.querySelector("folio-margins");
  void doc.body.offsetHeight;
  await doc.fonts.ready;
  const first = overlay.firstElementChild;
  const urls = new Set();
  for (const el of [first, ...first.querySelectorAll("*")]) {
    for (const pseudo of [null, "::before", "::after"]) {
      const cs = getComputedStyle(el, pseudo);
      for (const v of [cs.backgroundImage, cs.listStyleImage, cs.borderImageSource, cs.maskImage, cs.content]) {
        for (const m of v.matchAll(/url\\("((?:[^"\\\\]|\\\\.)*)"\\)/g)) urls.add(m[1].replace(/\\\\(.)/g, "$1"));
      }
    }
  }
  await Promise.all([
    ...[...overlay.querySelectorAll("img")].map((i) => (i.complete ? null : i.decode().catch(() => {}))),
    ...[...urls].map((u) => { const i = new Image(); i.src = u; return i.decode().catch(() => {}); }),
  ]);
  void doc.body.offsetHeight;
  await doc.fonts.ready;
  const out = {};
  const broken = new Set();
  for (const i of first.querySelectorAll("img")) if (i.complete && i.naturalWidth === 0 && (i.currentSrc || i.src).startsWith(prefix)) broken.add(i.currentSrc || i.src);
  if (broken.size) out.images = [...broken];
  for (const f of doc.fonts) if (f.status === "error") { out.fontError = true; break; }
  return out;
})`;

/**
 * Draws the job's header and footer onto the printed body, each page with its number (of the
 * whole document, also under pageRanges) and the page count. Runs on the slot's page right after
 * the body was printed there, with the body's document still in it; leaves the page's script
 * setting as it found it.
 */
export async function drawMargins(slot: Slot, session: CDPSession, job: MarginsJob, body: Uint8Array, printed: number, loaded?: LoadedAssets): Promise<Uint8Array> {
  const s = job.settings;
  const inches = (mm: number) => mm / MM_PER_INCH;
  const paper = { paperWidth: inches(s.widthMm), paperHeight: inches(s.heightMm), printBackground: true, preferCSSPageSize: false, transferMode: "ReturnAsBase64" as const };
  const numbers = printedPageNumbers(job.pageRanges, printed);
  let total: number | null = printed;
  if (job.pageRanges) {
    // The page count of the whole document needs it laid out whole once more; only a page count shown asks for that.
    total = null;
    if (usesTotalPages(job)) {
      const maxPages = config().RENDER_MAX_PAGES;
      const whole = await session.send("Page.printToPDF", {
        ...paper,
        ...marginsIn(s),
        pageRanges: `1-${maxPages + 1}`,
        generateTaggedPDF: false,
      });
      total = countPdfPages(Buffer.from(whole.data, "base64"));
      if (total > maxPages) throw new RenderFailure("LIMIT_EXCEEDED", "max_pages", `The document has more than ${maxPages} pages`);
    }
  }
  // An image shows one page: only that page needs its header and footer.
  const targets = job.image ? [job.image.page - 1].filter((i) => i < printed) : numbers.map((_, i) => i);
  if (targets.length === 0) return body;

  const box = firstMediaBox(body);
  // The overlay's page boxes: the body's page size in CSS pixels, a layout unit (1/64 px) under it so each fits its page.
  const px = (pt: number) => Math.floor((pt * 96 * 64) / 72 - 1) / 64;
  const page = { widthPx: px(box.width), heightPx: px(box.height) };
  const scriptsWere = slot.scripts;
  if (scriptsWere) await session.send("Emulation.setScriptExecutionDisabled", { value: true });
  slot.scripts = false;
  const evaluate = async (expression: string): Promise<unknown> => {
    const r = await session.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    // why the document's failure: the program runs among the document's own globals, which its scripts may have replaced.
    if (r.exceptionDetails) {
      const why = (r.exceptionDetails.exception?.description ?? r.exceptionDetails.text).split("\n")[0];
      throw new RenderFailure("RENDER_FAILED", "document_invalid", `The header and footer could not be drawn: ${why}`);
    }
    return r.result.value;
  };
  let printMedia = false;
  const t0 = performance.now();
  try {
    await evaluate(`${BUILD}(${JSON.stringify({ header: job.header ?? "", footer: job.footer ?? "", pages: targets.map((t) => numbers[t]), total, css: overlayCss(s, page) })})`);
    const t1 = performance.now();
    await session.send("Emulation.setEmulatedMedia", { media: "print" });
    printMedia = true;
    const report = ((await evaluate(`${SETTLE}(${JSON.stringify(`${ASSET_ORIGIN}/`)})`)) ?? {}) as PageReport;
    // A damaged file only the header or footer uses fails the render as one the body uses does.
    if (loaded && (report.images || report.fontError)) await checkPageAssets(report, loaded, session);
    const t2 = performance.now();
    const printedOverlay = await session.send("Page.printToPDF", {
      ...paper,
      marginTop: 0,
      marginRight: 0,
      marginBottom: 0,
      marginLeft: 0,
      generateTaggedPDF: false,
      generateDocumentOutline: false,
    });
    const overlay = Buffer.from(printedOverlay.data, "base64");
    const t3 = performance.now();
    const overlayPages = countPdfPages(overlay);
    if (overlayPages !== targets.length) {
      throw new RenderFailure(
        "RENDER_FAILED",
        "document_invalid",
        `The header and footer could not be laid out one page each (${overlayPages} pages for ${targets.length}): a CSS @page rule of the document may force page margins or sizes`,
      );
    }
    try {
      const r = stampPages(body, overlay, targets);
      log().debug({ buildMs: t1 - t0, settleMs: t2 - t1, printMs: t3 - t2, stampMs: performance.now() - t3 }, "headers and footers drawn");
      return r;
    } catch (e) {
      if (!(e instanceof PdfShapeError)) throw e;
      log().warn({ err: e }, "the printed PDF is not shaped as pdf-stamp reads it; stamping headers and footers with pdf-lib");
      // In a PDF helper (helpers.ts): pdf-lib holds the whole document, which only the document bounds.
      return await stampWithPdfLibInHelper(body, overlay, targets).catch((err: unknown) => {
        if (err instanceof HelperLimitError && err.limit !== "start") throw new RenderFailure("RENDER_FAILED", "render_process_exited", `The headers and footers could not be drawn: ${err.message}`);
        throw err;
      });
    }
  } finally {
    if (printMedia) await session.send("Emulation.setEmulatedMedia", { media: "" });
    if (scriptsWere) {
      await session.send("Emulation.setScriptExecutionDisabled", { value: false });
      slot.scripts = true;
    }
  }
}

function marginsIn(s: ResolvedSettings) {
  const inches = (mm: number) => mm / MM_PER_INCH;
  return { marginTop: inches(s.margins.topMm), marginRight: inches(s.margins.rightMm), marginBottom: inches(s.margins.bottomMm), marginLeft: inches(s.margins.leftMm) };
}

/** The size in points of the first page of a PDF as Chromium writes it (every page of a print has the paper size). */
function firstMediaBox(pdf: Uint8Array): { width: number; height: number } {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const at = buf.indexOf("/MediaBox", 0, "latin1");
  const m = at < 0 ? null : /^\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(buf.toString("latin1", at, at + 200));
  if (!m) throw new Error("The printed PDF has no page size");
  return { width: Number(m[3]) - Number(m[1]), height: Number(m[4]) - Number(m[2]) };
}
