import type { CDPSession } from "playwright-core";
import { ASSET_ORIGIN, assetUrl } from "../documents/asset-refs";
import type { RenderWarningRecord } from "../db/schema";
import type { WaitFor } from "../documents/page-settings";
import { assetFailure, fileName, type LoadedAssets } from "./assets";
import { assetName } from "./browser";
import { RenderFailure } from "./errors";
import { glyphsMissingWarning, systemCoverage, uncovered } from "./glyphs";

/**
 * What runs in the page before it is printed, in the one evaluate that writes the document
 * (render.ts printPdf), and what the worker makes of its answer: the readiness wait, the
 * characters for the glyph check, and the page's own verdict on the render's images and fonts.
 */

/** What the page script is asked to do besides writing the document. */
export type PageOptions = {
  /** What to wait for after load and fonts (settings.waitFor). */
  wait?: WaitFor;
  /** Check images and fonts loaded from the render's assets (only when it has some). */
  assets?: boolean;
  /** Header and footer HTML, whose text the glyph check also reads. */
  margins?: string[];
  /** Whether scripts run: when they do, <noscript> holds unrendered text. */
  scripts: boolean;
  /**
   * End the document's screen layout once it is ready. why: printing lays the document out for
   * print anyway; without a screen layout to restore afterwards, the 20-page report prints about
   * 30 ms sooner and leaves no screen frame to paint (measured here, with the same text and
   * pixels). Only where no script runs: a script may measure the page at beforeprint.
   */
  screenOff?: boolean;
};

/** The page's answer. */
export type PageReport = {
  /** The distinct characters beyond Latin-1 of the document's text, in order of appearance. */
  chars?: string;
  /** Asset URLs of <img> elements that loaded but could not be decoded. */
  images?: string[];
  /** Whether some web font failed to load or decode. */
  fontError?: true;
  /** The wait for flag or selector outlasted its timeoutMs. */
  timedOut?: true;
  /** The waitFor selector is not a valid CSS selector. */
  badSelector?: true;
};

/**
 * The page script: writes the document, waits for load, web fonts and waitFor, and reports. Plain
 * JavaScript in a string (a compiled function's text could carry the bundler's helpers). It also
 * runs with the page's own scripts off (Runtime.evaluate is not page script). Collecting text
 * costs one textContent and a regular-expression test when the text is Latin-1 (nearly all
 * documents); only otherwise does it walk the text nodes.
 */
const PAGE_SCRIPT = `async (html, title, o) => {
  document.open(); document.write(html); document.close();
  if (document.readyState !== "complete") await new Promise((r) => addEventListener("load", r, { once: true }));
  if (title !== null) document.title = title;
  await document.fonts.ready; // print only once web fonts have loaded
  const out = {};
  const w = o.wait;
  if (w) {
    if (w.delayMs !== undefined) await new Promise((r) => setTimeout(r, w.delayMs));
    else {
      if (w.selector !== undefined) {
        try { document.querySelector(w.selector); } catch { out.badSelector = true; return out; }
      }
      const ready = () => { try { return w.flag ? window.folioReady === true : document.querySelector(w.selector) !== null; } catch { return false; } };
      if (!ready()) {
        const start = performance.now();
        const ok = await new Promise((resolve) => {
          const tick = () => ready() ? resolve(true) : w.timeoutMs !== undefined && performance.now() - start >= w.timeoutMs ? resolve(false) : setTimeout(tick, 20);
          setTimeout(tick, 20);
        });
        if (!ok) { out.timedOut = true; return out; }
      }
    }
    await document.fonts.ready; // fonts the page asked for while it got ready
  }
  // The checks below run among the page's own globals: a page that broke them (replaced Set,
  // say) only loses its own checks, never fails the render as a browser error.
  try {
    const wide = /[^\\x00-\\xff]/;
    const chars = new Set();
    const add = (s) => { if (wide.test(s)) for (const c of s) if (c.codePointAt(0) > 0xff) chars.add(c); };
    const skip = o.scripts ? ["script", "style", "noscript"] : ["script", "style"];
    const walk = (root) => {
      const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n; (n = tw.nextNode()); ) if (!skip.includes(n.parentNode.localName)) add(n.data);
    };
    const body = document.body;
    if (body && wide.test(body.textContent)) walk(body);
    for (const i of document.getElementsByTagName("input")) if (i.type !== "hidden") add(i.value);
    for (const h of o.margins ?? []) {
      const t = document.createElement("template");
      t.innerHTML = h;
      walk(t.content);
    }
    if (chars.size) out.chars = [...chars].join("");
  } catch {}
  if (o.assets) {
    try {
      const prefix = ${JSON.stringify(`${ASSET_ORIGIN}/`)};
      // Images load after the load event here (the document was written, not fetched): wait for
      // the render's own, which the print would otherwise race.
      const mine = [...document.images].filter((i) => (i.currentSrc || i.src).startsWith(prefix) && i.loading !== "lazy");
      await Promise.all(mine.map((i) => (i.complete ? null : i.decode().catch(() => {}))));
      const images = [];
      for (const i of mine) if (i.complete && i.naturalWidth === 0) images.push(i.currentSrc || i.src);
      if (images.length) out.images = images;
      for (const f of document.fonts) if (f.status === "error") { out.fontError = true; break; }
    } catch {}
  }
  if (o.screenOff) {
    const s = document.createElement("style");
    s.textContent = "@media screen { html { display: none !important; } }";
    (document.head ?? document.documentElement).append(s);
  }
  return out;
}`;

/** The evaluate expression that writes `html` and reports (see PAGE_SCRIPT). */
export function pageExpression(html: string, title: string | undefined, o: PageOptions): string {
  return `(${PAGE_SCRIPT})(${JSON.stringify(html)}, ${JSON.stringify(title ?? null)}, ${JSON.stringify(o)})`;
}

/** What a wait is for, in words: "window.folioReady = true", "an element matching #chart.done". */
export function describeWait(w: WaitFor): string {
  if (w.flag) return "window.folioReady = true";
  if (w.selector !== undefined) return `an element matching ${JSON.stringify(w.selector)}`;
  return `${w.delayMs} ms`;
}

/** Fails the render when the wait for flag or selector did not end (RENDER_FAILED, document_invalid). */
export function checkWait(report: PageReport, w: WaitFor | undefined) {
  if (!w) return;
  if (report.badSelector) throw new RenderFailure("RENDER_FAILED", "document_invalid", `settings.waitFor.selector ${JSON.stringify(w.selector)} is not a valid CSS selector`);
  if (report.timedOut) {
    throw new RenderFailure("RENDER_FAILED", "document_invalid", `The page was not ready within settings.waitFor.timeoutMs (${w.timeoutMs} ms): it waited for ${describeWait(w)}`);
  }
}

/**
 * Fails the render when the page could not use one of its assets: an image it could not decode,
 * or a font the browser refused (its sanitiser is stricter than the worker's parse). A failed
 * font is not named by the page, so each font the page asked for is loaded again by itself to
 * find the culprits; a failure that none of them explains (a font from elsewhere, which loads
 * nothing) is not the render's files' fault and is let be.
 */
export async function checkPageAssets(report: PageReport, loaded: LoadedAssets, session: CDPSession) {
  const problems: { cls: "image" | "font"; text: string }[] = [];
  const named = (url: string) => {
    const name = assetName(url);
    return name === undefined ? undefined : loaded.refs.get(name);
  };
  for (const url of new Set(report.images)) {
    const ref = named(url);
    if (ref && loaded.page.has(assetName(url)!)) problems.push({ cls: "image", text: `${fileName(ref.label, "image")} cannot be decoded: it is damaged` });
  }
  if (report.fontError) {
    const fonts = [...loaded.page].filter(([name, a]) => a.requested && loaded.refs.get(name)?.class === "font").map(([name]) => name);
    const { result } = await session.send("Runtime.evaluate", {
      expression: `Promise.all(${JSON.stringify(fonts.map(assetUrl))}.map((u, i) =>
        new FontFace("folio-probe-" + i, "url(" + JSON.stringify(u) + ")").load().then(() => null, () => i)))`,
      awaitPromise: true,
      returnByValue: true,
    });
    for (const i of (result.value as (number | null)[] | undefined) ?? []) {
      if (i !== null) problems.push({ cls: "font", text: `${fileName(loaded.refs.get(fonts[i]!)!.label, "font")} is damaged: the browser refused it` });
    }
  }
  if (problems.length) throw assetFailure(problems);
}

/** The render's font_glyphs_missing warning, when some character of its text no available font covers. */
export async function glyphWarnings(report: PageReport, loaded: LoadedAssets | undefined): Promise<RenderWarningRecord[] | undefined> {
  if (!report.chars) return undefined;
  const system = await systemCoverage();
  if (!system) return undefined;
  const missing = uncovered(report.chars, system, loaded?.fontCodePoints);
  return missing.length ? [glyphsMissingWarning(missing)] : undefined;
}
