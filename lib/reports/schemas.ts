import { z } from "zod";
import { templateKinds, type TemplateKind } from "../db/schema";

/** What the Reports API renders from each template kind (POST /v1/reports/render's `format`). */
export const reportFormats = {
  component: ["pdf", "png", "html"],
  handlebars: ["pdf", "png", "html"],
  workbook: ["xlsx"],
} as const satisfies Record<TemplateKind, readonly ("pdf" | "png" | "html" | "xlsx")[]>;

export const Report = z
  .object({
    name: z.string().meta({ description: "What POST /v1/reports/render names as template.name" }),
    templateId: z.string(),
    description: z.string(),
    kind: z.enum(templateKinds),
    formats: z.array(z.enum(["pdf", "png", "html", "xlsx"])).meta({ description: "The formats the Reports API renders it in" }),
    version: z
      .object({ id: z.string(), version: z.number().int(), publishedAt: z.iso.datetime() })
      .meta({ description: "The newest published version: the one the Reports API renders" }),
    dataSchema: z.record(z.string(), z.unknown()).meta({ description: "The version's data schema (JSON Schema 2020-12); {} when it declares none: any data object" }),
  })
  .meta({ id: "Report", description: "A template the Reports API renders by name, as its newest published version." });
export type Report = z.infer<typeof Report>;

export const ReportList = z.object({ items: z.array(Report) }).meta({ id: "ReportList" });
export type ReportList = z.infer<typeof ReportList>;
