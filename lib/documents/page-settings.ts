import { z } from "zod";
import { named } from "../json-schema";

const mm = (max: number) => z.number().finite().min(0).max(max);

/** A BCP 47 language tag such as de-CH: page settings, previews, the Reports API and formats. */
export const Locale = named(
  z
  .string()
  .min(2)
  .max(64)
  .refine((l) => {
    try {
      return Intl.getCanonicalLocales(l).length === 1;
    } catch {
      return false;
    }
  }, "is not a BCP 47 language tag"),
  "Locale",
  "A BCP 47 language tag (2 to 64 characters): the language of formats, the page's lang, Intl and navigator.language.",
  ["de-CH", "en-US", "fr"],
);

/** Template data: any JSON object. */
export const JsonObject = z.record(z.string(), z.unknown());

/**
 * When the page is ready to print (docs/api.md, "Readiness"): by default at the load event once web
 * fonts have loaded. A page that draws later (charts after a timer or an animation, content
 * fetched from its own assets) names what to wait for: `flag` (the page sets
 * `window.folioReady = true`), `selector` (an element matching this CSS selector exists), or
 * `delayMs` (a fixed pause). `timeoutMs` bounds a flag or selector wait; without it the render's
 * time limit does.
 */
export const WaitFor = named(
  z
    .strictObject({
      flag: z.literal(true).optional(),
      selector: z.string().min(1).max(1000).optional(),
      delayMs: z.number().int().min(1).max(60_000).optional(),
      timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
    })
    .superRefine((w, ctx) => {
      const sent = (["flag", "selector", "delayMs"] as const).filter((k) => w[k] !== undefined);
      if (sent.length !== 1) ctx.addIssue({ code: "custom", path: sent.length ? [sent[1]!] : [], message: "send exactly one of flag, selector, delayMs" });
      if (w.timeoutMs !== undefined && w.delayMs !== undefined) ctx.addIssue({ code: "custom", path: ["timeoutMs"], message: "goes with flag or selector; a delay is its own bound" });
    }),
  "WaitFor",
  "What the page waits for before it is printed, after its load event and web fonts: exactly one of flag (true: the page sets window.folioReady = true), selector (a CSS selector that must match an element) or delayMs (1 to 60,000 ms). timeoutMs (with flag or selector) fails the render with document_invalid when the wait lasts longer; without it the render's time limit bounds the wait.",
  [{ flag: true, timeoutMs: 10_000 }, { selector: "#chart.done" }, { delayMs: 1500 }],
);
export type WaitFor = z.infer<typeof WaitFor>;

/** Page settings (decisions.md: Renders). Sizes in millimetres; A4 with 10 mm margins by default. */
export const PageSettings = named(
  z
  .strictObject({
    pageSize: z.strictObject({ widthMm: mm(5000).min(10), heightMm: mm(5000).min(10) }).optional(),
    margins: z
      .strictObject({ topMm: mm(1000), rightMm: mm(1000), bottomMm: mm(1000), leftMm: mm(1000) })
      .partial()
      .optional(),
    locale: Locale.optional(),
    title: z.string().max(1000).optional(),
    author: z.string().max(1000).optional(),
    subject: z.string().max(1000).optional(),
    keywords: z.string().max(1000).optional(),
    tagged: z.boolean().optional(),
    outline: z.boolean().optional(),
    waitFor: WaitFor.optional(),
  })
  .superRefine((s, ctx) => {
    const w = s.pageSize?.widthMm ?? 210;
    const h = s.pageSize?.heightMm ?? 297;
    const m = { topMm: 10, rightMm: 10, bottomMm: 10, leftMm: 10, ...s.margins };
    if (m.leftMm + m.rightMm >= w) ctx.addIssue({ code: "custom", path: ["margins"], message: "left and right margins leave no room on the page" });
    if (m.topMm + m.bottomMm >= h) ctx.addIssue({ code: "custom", path: ["margins"], message: "top and bottom margins leave no room on the page" });
  }),
  "PageSettings",
  "Page size and margins in millimetres (A4, 210 x 297, with 10 mm margins by default), the render language (locale, en-US by default), PDF metadata (title, author, subject, keywords), tagged (an accessible PDF), outline (bookmarks from headings) and waitFor (what the page waits for before printing).",
  [{ pageSize: { widthMm: 210, heightMm: 297 }, margins: { topMm: 20, bottomMm: 20 }, locale: "de-DE", title: "Invoice" }],
);
export type PageSettings = z.infer<typeof PageSettings>;

/** Resolved settings with every default applied: what the renderer uses. */
export type ResolvedSettings = {
  widthMm: number;
  heightMm: number;
  margins: { topMm: number; rightMm: number; bottomMm: number; leftMm: number };
  locale: string;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  tagged: boolean;
  outline: boolean;
  waitFor?: WaitFor;
};

export function resolveSettings(s: PageSettings | undefined): ResolvedSettings {
  return {
    widthMm: s?.pageSize?.widthMm ?? 210,
    heightMm: s?.pageSize?.heightMm ?? 297,
    margins: { topMm: 10, rightMm: 10, bottomMm: 10, leftMm: 10, ...s?.margins },
    locale: s?.locale ?? "en-US",
    title: s?.title,
    author: s?.author,
    subject: s?.subject,
    keywords: s?.keywords,
    tagged: s?.tagged ?? false,
    outline: s?.outline ?? false,
    waitFor: s?.waitFor,
  };
}
