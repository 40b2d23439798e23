"use server";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as templates from "@/lib/templates";
import { HBS_STARTERS, hbsStarterContent } from "@/lib/templates/hbs-starters";

/** Page sizes the create dialog offers, in mm (custom sends its own). */
const PRESETS = { a4: { widthMm: 210, heightMm: 297 }, letter: { widthMm: 215.9, heightMm: 279.4 } } as const;

const mm = (max: number) => z.coerce.number().min(0).max(max);

/** The create dialog's form; the verb checks the content as any save does. */
const CreateInput = z.object({
  name: templates.TemplateName,
  kind: z.enum(["component", "handlebars", "workbook"]).default("component"),
  starter: z.enum(HBS_STARTERS).default("basic"),
  workbookAssetId: z.string().min(1).max(128).optional(),
  pageSize: z.enum(["a4", "letter", "custom"]).default("a4"),
  widthMm: mm(5000).optional(),
  heightMm: mm(5000).optional(),
  topMm: mm(1000).default(10),
  rightMm: mm(1000).default(10),
  bottomMm: mm(1000).default(10),
  leftMm: mm(1000).default(10),
});

/**
 * A new template with something to see from the start: a component template a first text; a
 * Handlebars template the starter the person picked (lib/templates/hbs-starters.ts: basic,
 * invoice, report, letter), each with header, footer and sample data that renders it.
 */
export const createTemplateAction = consoleAction(CreateInput, async (ctx, input) => {
  if (input.kind === "workbook") {
    const content = { workbook: { assetId: input.workbookAssetId ?? "" }, sampleData: [{ name: "Sample", data: {} }] };
    const t = await templates.createTemplate(ctx, { name: input.name, kind: "workbook", content });
    return { id: t.id };
  }
  const pageSize = input.pageSize === "custom" ? { widthMm: input.widthMm ?? 0, heightMm: input.heightMm ?? 0 } : PRESETS[input.pageSize];
  const settings = { pageSize, margins: { topMm: input.topMm, rightMm: input.rightMm, bottomMm: input.bottomMm, leftMm: input.leftMm } };
  if (input.kind === "handlebars") {
    const t = await templates.createTemplate(ctx, { name: input.name, kind: "handlebars", content: hbsStarterContent(input.starter, input.name, settings) });
    return { id: t.id };
  }
  const content = {
    composition: {
      root: { type: "container", style: { fontFamily: "DejaVu Sans, sans-serif", fontSize: 14 }, children: [{ type: "text", text: input.name }] },
    },
    settings,
  };
  const t = await templates.createTemplate(ctx, { name: input.name, content });
  return { id: t.id };
});

export const renameTemplateAction = consoleAction(z.object({ id: z.string().min(1).max(128), name: templates.TemplateName }), async (ctx, input) => {
  const t = await templates.updateTemplate(ctx, input.id, { name: input.name });
  return { id: t.id, name: t.name };
});

export const deleteTemplateAction = consoleAction(z.object({ id: z.string().min(1).max(128) }), (ctx, input) => templates.deleteTemplates(ctx, [input.id]));
