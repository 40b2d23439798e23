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
  })
  .superRefine((s, ctx) => {
    const w = s.pageSize?.widthMm ?? 210;
    const h = s.pageSize?.heightMm ?? 297;
    const m = { topMm: 10, rightMm: 10, bottomMm: 10, leftMm: 10, ...s.margins };
    if (m.leftMm + m.rightMm >= w) ctx.addIssue({ code: "custom", path: ["margins"], message: "left and right margins leave no room on the page" });
    if (m.topMm + m.bottomMm >= h) ctx.addIssue({ code: "custom", path: ["margins"], message: "top and bottom margins leave no room on the page" });
  }),
  "PageSettings",
  "Page size and margins in millimetres (A4, 210 x 297, with 10 mm margins by default), the render language (locale, en-US by default), PDF metadata (title, author, subject, keywords), tagged (an accessible PDF) and outline (bookmarks from headings).",
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
  };
}
