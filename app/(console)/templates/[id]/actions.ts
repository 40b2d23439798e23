"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as renders from "@/lib/renders";
import { imageChoices } from "@/lib/templates/editor-files";
import { workbookPlaceholders } from "@/lib/templates/workbook";

/** The editor's image picker: the workspace's ready images, each with a fresh link to show it. */
export const imageChoicesAction = consoleAction(z.strictObject({}), (ctx) => imageChoices(ctx), { effect: "read" });

/** The workbook editor's list of placeholders: those of the workbook picked, planned as a render plans them. */
export const workbookPlaceholdersAction = consoleAction(z.strictObject({ assetId: z.string().min(1).max(128) }), (ctx, input) => workbookPlaceholders(ctx, input.assetId), { effect: "read" });

/**
 * The version list's "Render…": a real render of a published version with the person's data, made by
 * the verb of POST /v1/renders (render:create, the workspace's allowances); answers the render, whose
 * console page the dialog opens.
 */
export const renderVersionAction = consoleAction(renders.RenderVersionInput, async (ctx, input) => {
  const r = await renders.renderVersion(ctx, input);
  revalidatePath("/renders");
  return { id: r.id, state: r.state };
});
