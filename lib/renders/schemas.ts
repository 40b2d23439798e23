import { z } from "zod";
import { renderFormats } from "../db/schema";

const mm = (max: number) => z.number().finite().min(0).max(max);

/** Page settings (decisions.md: Renders). Sizes in millimetres; A4 with 10 mm margins by default. */
export const PageSettings = z
  .strictObject({
    pageSize: z.strictObject({ widthMm: mm(5000).min(10), heightMm: mm(5000).min(10) }).optional(),
    margins: z
      .strictObject({ topMm: mm(1000), rightMm: mm(1000), bottomMm: mm(1000), leftMm: mm(1000) })
      .partial()
      .optional(),
    locale: z
      .string()
      .min(2)
      .max(64)
      .refine((l) => {
        try {
          return Intl.getCanonicalLocales(l).length === 1;
        } catch {
          return false;
        }
      }, "is not a BCP 47 language tag")
      .optional(),
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
  });
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

/** Caller HTML (decisions.md: Renders > document). */
export const CallerDocument = z.strictObject({
  html: z.string().max(5_000_000),
  assetIds: z.array(z.string().min(1).max(128)).max(100).optional(),
  settings: PageSettings.optional(),
  header: z.string().max(100_000).optional(),
  footer: z.string().max(100_000).optional(),
});
export type CallerDocument = z.infer<typeof CallerDocument>;

/** "1-3,5": page numbers from 1, each range ascending. */
export const PageRanges = z
  .string()
  .max(1000)
  .regex(/^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$/, "must look like 1-3,5")
  .refine(
    (s) =>
      s.split(",").every((part) => {
        const [a, b] = part.split("-").map((x) => Number(x.trim()));
        return a! >= 1 && (b === undefined || b >= a!);
      }),
    "page numbers start at 1 and each range must ascend",
  );

export const CreateRenderInput = z
  .strictObject({
    document: CallerDocument,
    format: z.enum(renderFormats).default("pdf"),
    image: z
      .strictObject({
        page: z.number().int().min(1).max(10_000).default(1),
        scale: z.number().min(0.5).max(4).default(1),
      })
      .optional(),
    pageRanges: PageRanges.optional(),
    waitMs: z.number().int().min(0).max(60_000).default(0),
    test: z.boolean().default(false),
  })
  .superRefine((r, ctx) => {
    if (r.image && r.format === "pdf") ctx.addIssue({ code: "custom", path: ["image"], message: "applies only to png and jpeg output" });
    if (r.pageRanges && r.format !== "pdf") ctx.addIssue({ code: "custom", path: ["pageRanges"], message: "applies only to pdf output; images take image.page" });
  });
export type CreateRenderInput = z.infer<typeof CreateRenderInput>;

export type RenderResult = {
  downloadUrl?: string;
  expiresAt?: string;
  pageCount: number;
  outputBytes: number;
  durationMs: number;
};

export type Render = {
  id: string;
  state: "queued" | "processing" | "succeeded" | "failed" | "cancelled";
  test: boolean;
  source: string;
  format: "pdf" | "png" | "jpeg";
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  result?: RenderResult;
  error?: { code: string; diagnostic: string; message: string };
};
