import type { CDPSession } from "playwright-core";
import type { AssetRef } from "../documents/asset-refs";
import { config } from "../config";
import type { RenderFormat, RenderWarningRecord } from "../db/schema";
import type { ResolvedSettings } from "../documents/page-settings";
import { loadAssets, type LoadedAssets } from "./assets";
import { BrowserPool, type Slot } from "./browser";
import { RenderAborted, RenderFailure, TransientRenderError } from "./errors";
import { drawMargins, hasMargins } from "./margins";
import { checkPageAssets, checkWait, describeWait, glyphWarnings, pageExpression, type PageReport } from "./page";
import { blankUrlTitle, countPdfPages, PDF_CREATOR, PDF_PRODUCER, stampInfo } from "./pdf";
import { rasterize } from "./raster";
import { postProcessInHelper } from "./helpers";
import { HelperLimitError } from "../offload/pool";

export type RenderJob = {
  renderId: string;
  attempt: number;
  html: string;
  header?: string;
  footer?: string;
  settings: ResolvedSettings;
  format: RenderFormat;
  image?: { page: number; scale: number };
  pageRanges?: string;
  test: boolean;
  /** Files the page may load under ASSET_ORIGIN (fonts, images, stylesheets), from the file store. */
  assets?: AssetRef[];
};

/**
 * The file, the pages of the document (for an image: of the document it shows one page of), and
 * what a succeeded render warns about (font_glyphs_missing).
 */
export type RenderOutput = { bytes: Uint8Array; pageCount: number; warnings?: RenderWarningRecord[] };

const CSS_PX_PER_MM = 96 / 25.4;

/** Pixels of an image render: CSS pixels (96 per inch) times the scale. A4 at scale 1 is 794 x 1123. */
export function imagePixels(s: ResolvedSettings, scale: number) {
  return { width: Math.round(s.widthMm * CSS_PX_PER_MM * scale), height: Math.round(s.heightMm * CSS_PX_PER_MM * scale) };
}
const MAX_IMAGE = { width: 4096, height: 8192 };

/**
 * Renders one document on a warm page under an origin of its own, within the configured limits.
 * Throws RenderFailure for the document's own failures (final), TransientRenderError when the
 * browser went away (worth a retry), RenderAborted when the signal fired.
 */
export async function renderDocument(pool: BrowserPool, job: RenderJob, signal: AbortSignal): Promise<RenderOutput> {
  const cfg = config();
  let inputBytes = Buffer.byteLength(job.html) + Buffer.byteLength(job.header ?? "") + Buffer.byteLength(job.footer ?? "");
  // A file the render names twice is loaded (and counted) once.
  if (job.assets?.length) inputBytes += [...new Map(job.assets.map((a) => [a.key, a.size])).values()].reduce((n, s) => n + s, 0);
  if (inputBytes > cfg.RENDER_MAX_INPUT_BYTES) {
    throw new RenderFailure("LIMIT_EXCEEDED", "max_input_bytes", `The document and its files are ${inputBytes} bytes; the limit is ${cfg.RENDER_MAX_INPUT_BYTES}`);
  }
  if (job.image) {
    const { width: w, height: h } = imagePixels(job.settings, job.image.scale);
    if (w > MAX_IMAGE.width || h > MAX_IMAGE.height) {
      throw new RenderFailure("LIMIT_EXCEEDED", "image_too_large", `The image would be ${w} x ${h} pixels; at most ${MAX_IMAGE.width} x ${MAX_IMAGE.height} are allowed`);
    }
  }
  // why the listener comes first: a cancel or the time limit may fire while the render still waits
  // for a free page, and an abort event that nobody heard is never heard again.
  const progress: Progress = {};
  const abortError = () => new RenderAborted(signal.reason === "timeout" ? "timeout" : "cancelled", progress.awaiting);
  const cleanups: (() => void)[] = [];
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) return reject(abortError());
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener("abort", onAbort));
  });
  aborted.catch(() => {});

  let loaded: LoadedAssets | undefined;
  if (job.assets?.length) {
    try {
      loaded = await Promise.race([loadAssets(job.assets), aborted]);
    } catch (e) {
      for (const c of cleanups) c();
      throw e;
    }
  }
  const acquiring = pool.acquire();
  let slot: Slot;
  try {
    slot = await Promise.race([acquiring, aborted]);
  } catch (e) {
    void acquiring.then((s) => pool.release(s, true)); // not used: back warm as it came
    for (const c of cleanups) c();
    throw e;
  }
  let healthy = true;
  let crashed = false;
  const crash = new Promise<never>((_, reject) => {
    const onCrash = () => {
      crashed = true;
      reject(new RenderFailure("RENDER_FAILED", "render_process_exited", "The page's render process exited, for example out of working memory"));
    };
    slot.page.once("crash", onCrash);
    cleanups.push(() => slot.page.off("crash", onCrash));
  });
  crash.catch(() => {});
  const stop = Promise.race([aborted, crash]);
  slot.assets = loaded?.page;
  try {
    // why: the page's Document keeps the images and fonts it loaded and hands them to a later
    // document written into it without asking the worker; only a render allowed those same files
    // may reuse it (the same template again, the common case). Any other gets a new Document.
    if (slot.loadedAssets && ![...slot.loadedAssets].every((name) => loaded?.page.has(name))) {
      await Promise.race([resetSlot(slot), stop]).then((ok) => {
        if (!ok) throw new TransientRenderError("The page could not be reset for the render");
      });
    }
    const { pdf, report, pageCount } = await Promise.race([printPdf(slot, job, loaded, progress), stop]);
    const out = await finish(pdf, pageCount, job, signal);
    const warnings = report.chars ? await glyphWarnings(report, loaded) : undefined;
    return warnings ? { ...out, warnings } : out;
  } catch (e) {
    // A document failure leaves the page usable; a crash, an abort (the page may still be busy)
    // or a browser error does not.
    healthy = e instanceof RenderFailure && !crashed;
    if (e instanceof RenderFailure || e instanceof RenderAborted) throw e;
    if (crashed) throw new RenderFailure("RENDER_FAILED", "render_process_exited", "The page's render process exited");
    throw classifyBrowserError(e, job);
  } finally {
    for (const c of cleanups) c();
    if (loaded && healthy && !slot.scripts) {
      for (const [name, a] of loaded.page) if (a.requested) (slot.loadedAssets ??= new Set()).add(name);
    }
    if (!healthy) pool.release(slot, false);
    else if (slot.scripts) void resetSlot(slot).then((ok) => pool.release(slot, ok));
    else pool.release(slot, true); // nothing ran: the Window holds nothing of this render (loadedAssets aside)
  }
}

/**
 * Whether a document may need scripts: script elements, event-handler attributes, javascript: URLs
 * or srcdoc frames. A false "yes" costs a page reset; a false "no" only means a script that could
 * not have run anyway (isolation never depends on this guess: with scripts off nothing runs).
 */
export function mayRunScripts(html: string): boolean {
  return /<script|\son[a-z]+\s*=|javascript:|srcdoc/i.test(html);
}

const MM_PER_INCH = 25.4;

/** What the render is doing, for the message of a time limit that fires meanwhile. */
type Progress = { awaiting?: string };

/**
 * Writes the document into the slot's page and prints it. Straight CDP calls: one evaluate that
 * writes, waits for load, fonts and settings.waitFor, sets the title and reports (page.ts), then
 * one printToPDF (Playwright's page API would add round trips and layers on the hottest path).
 */
async function printPdf(slot: Slot, job: RenderJob, loaded: LoadedAssets | undefined, progress: Progress): Promise<{ pdf: Uint8Array; report: PageReport; pageCount: number }> {
  const s = job.settings;
  const c = await cdp(slot);
  await setLocale(slot, c, s.locale);
  const { session } = c;
  // why: a flag or a selector is set by the page's scripts; a delay is for them too.
  const scripts = mayRunScripts(job.html) || s.waitFor !== undefined;
  if (scripts !== slot.scripts) {
    await session.send("Emulation.setScriptExecutionDisabled", { value: !scripts });
    slot.scripts = scripts;
  }
  // The page's Window holds nothing of earlier renders (see Slot); the document is written into it.
  // why not page.setContent: its load wait hangs when the document starts a navigation of its own
  // (answered 204, so it never commits), while the document's own load event still fires.
  const margins = [job.header, job.footer].filter((m): m is string => !!m);
  if (s.waitFor) progress.awaiting = `the page to load and for ${describeWait(s.waitFor)}`;
  const written = await session.send("Runtime.evaluate", {
    expression: pageExpression(job.html, s.title, { wait: s.waitFor, assets: !!loaded, margins: margins.length ? margins : undefined, scripts, screenOff: !scripts }),
    awaitPromise: true,
    returnByValue: true,
  });
  progress.awaiting = undefined;
  if (written.exceptionDetails) {
    throw new Error(`Writing the document failed: ${written.exceptionDetails.exception?.description ?? written.exceptionDetails.text}`);
  }
  const report = (written.result.value ?? {}) as PageReport;
  checkWait(report, s.waitFor);
  if (loaded && (report.images || report.fontError)) await checkPageAssets(report, loaded, session);
  const maxPages = config().RENDER_MAX_PAGES;
  const inches = (mm: number) => mm / MM_PER_INCH;
  const pdf = await session.send("Page.printToPDF", {
    paperWidth: inches(s.widthMm),
    paperHeight: inches(s.heightMm),
    marginTop: inches(s.margins.topMm),
    marginRight: inches(s.margins.rightMm),
    marginBottom: inches(s.margins.bottomMm),
    marginLeft: inches(s.margins.leftMm),
    printBackground: true,
    // why: a PDF is cut one page past the limit, which is enough to tell it is over. An image is
    // printed whole too (layout is of the whole document either way), so its render knows the
    // document's page count: a client showing pages as images learns how many there are.
    pageRanges: job.pageRanges ?? `1-${maxPages + 1}`,
    generateTaggedPDF: s.tagged,
    generateDocumentOutline: s.outline,
    preferCSSPageSize: false,
    transferMode: "ReturnAsBase64",
  });
  const body = Buffer.from(pdf.data, "base64");
  const pageCount = countPdfPages(body);
  // Headers and footers are drawn onto the printed pages (margins.ts), not by Chromium's header template.
  if (!hasMargins(job) || pageCount > maxPages) return { pdf: body, report, pageCount };
  return { pdf: await drawMargins(slot, session, job, body, pageCount, loaded), report, pageCount };
}

type SlotCdp = { session: CDPSession; locale: string; userAgent?: string };
const cdpOf = new WeakMap<Slot, SlotCdp>();

/** The slot's own CDP session (made on first use), for the hot calls and what Playwright has no API for. */
async function cdp(slot: Slot): Promise<SlotCdp> {
  let c = cdpOf.get(slot);
  if (!c) {
    c = { session: await slot.context.newCDPSession(slot.page), locale: "" };
    cdpOf.set(slot, c);
  }
  return c;
}

/**
 * The page's locale: Intl's default, navigator.language(s) and Accept-Language. Changed only when
 * it differs from the slot's previous render.
 */
async function setLocale(slot: Slot, c: SlotCdp, locale: string) {
  if (c.locale === locale) return;
  c.userAgent ??= await slot.page.evaluate(() => navigator.userAgent);
  await Promise.all([
    c.session.send("Emulation.setLocaleOverride", { locale }),
    c.session.send("Emulation.setUserAgentOverride", { userAgent: c.userAgent, acceptLanguage: locale }),
  ]);
  c.locale = locale;
}

async function finish(printed: Uint8Array, pageCount: number, job: RenderJob, signal: AbortSignal): Promise<RenderOutput> {
  const cfg = config();
  if (pageCount > cfg.RENDER_MAX_PAGES) {
    throw new RenderFailure("LIMIT_EXCEEDED", "max_pages", `The document has more than ${cfg.RENDER_MAX_PAGES} pages`);
  }
  const s = job.settings;
  // Creator and Producer name Folio: written in place, or by pdf-lib below when that cannot be done.
  const stamped = stampInfo(printed, "about:blank");
  const pdf = stamped ? printed : blankUrlTitle(printed, "about:blank");
  const metadata = { author: s.author, subject: s.subject, keywords: s.keywords, ...(stamped ? {} : { creator: PDF_CREATOR, producer: PDF_PRODUCER }) };
  let bytes = pdf;
  if (job.test || !stamped || metadata.author !== undefined || metadata.subject !== undefined || metadata.keywords !== undefined) {
    try {
      bytes = await postProcessInHelper(pdf, { watermark: job.test, metadata }, signal);
    } catch (e) {
      throw helperFailure(e, signal, "pdf_postprocess_failed", "The PDF could not be finished");
    }
  }
  if (job.image) {
    if (job.image.page > pageCount) throw new RenderFailure("RENDER_FAILED", "image_page_missing", `The document has no page ${job.image.page}; it has ${pageCount}`);
    bytes = await rasterize(bytes, job.format === "jpeg" ? "jpeg" : "png", imagePixels(s, job.image.scale), signal, job.image.page);
  }
  if (bytes.byteLength > cfg.RENDER_MAX_OUTPUT_BYTES) {
    throw new RenderFailure("LIMIT_EXCEEDED", "max_output_bytes", `The output is ${bytes.byteLength} bytes; the limit is ${cfg.RENDER_MAX_OUTPUT_BYTES}`);
  }
  return { bytes, pageCount };
}

/**
 * What a job in a PDF helper (helpers.ts) ending in error fails the render with: the render's own
 * abort when its signal fired; render_process_exited past the helper's memory (spec: Limits >
 * Renders, other working memory) or when the helper stopped; else the job's own failure.
 */
export function helperFailure(e: unknown, signal: AbortSignal, diagnostic: "pdf_postprocess_failed" | "document_invalid", what: string): Error {
  if (signal.aborted) return new RenderAborted(signal.reason === "timeout" ? "timeout" : "cancelled");
  if (e instanceof HelperLimitError && e.limit === "start") return new TransientRenderError(`${what}: ${e.message}`, { cause: e });
  if (e instanceof HelperLimitError) return new RenderFailure("RENDER_FAILED", "render_process_exited", `${what}: ${e.message}`);
  return new RenderFailure("RENDER_FAILED", diagnostic, `${what}: ${(e as Error).message}`);
}

function classifyBrowserError(e: unknown, job: RenderJob): Error {
  const msg = (e as Error)?.message ?? String(e);
  if (/Execution context was destroyed|frame was detached/i.test(msg)) {
    return new RenderFailure("RENDER_FAILED", "document_invalid", "The document replaced itself while it was being rendered");
  }
  if (/page range exceeds page count|page range is invalid|Page range syntax error/i.test(msg)) {
    return job.image
      ? new RenderFailure("RENDER_FAILED", "image_page_missing", `The document has no page ${job.image.page}`)
      : new RenderFailure("RENDER_FAILED", "document_invalid", `pageRanges ${job.pageRanges} selects none of the document's pages`);
  }
  return new TransientRenderError(`The browser failed while rendering: ${msg.split("\n")[0]}`, { cause: e });
}

/**
 * Leaves the slot as new for the next render, off the render's own latency: a navigation to
 * about:blank ends the old document with its Window, timers and workers; popups it opened close.
 */
async function resetSlot(slot: Slot): Promise<boolean> {
  slot.loadedAssets = undefined;
  try {
    await Promise.all([
      slot.page.goto("about:blank", { timeout: 5000 }),
      ...slot.context.pages().filter((p) => p !== slot.page).map((p) => p.close()),
    ]);
    return true;
  } catch {
    return false;
  }
}
