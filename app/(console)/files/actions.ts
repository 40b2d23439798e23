"use server";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as templates from "@/lib/templates";
import * as files from "@/lib/workspace-files";

const Id = z.string().min(1).max(128);
/** A form's folder field: "" is the workspace's root. */
const FolderField = z
  .string()
  .max(128)
  .optional()
  .transform((v) => (v ? v : null));

export const createFolderAction = consoleAction(z.object({ name: files.FolderName, parentId: FolderField }), async (ctx, input) => {
  const f = await files.createFolder(ctx, input);
  return { id: f.id, path: f.path };
});

/** A new, empty stylesheet; `.css` is added to a name that does not end in it. */
export const createStylesheetAction = consoleAction(z.object({ name: z.string().max(120), folderId: FolderField }), async (ctx, input) => {
  const name = /\.css$/i.test(input.name) ? input.name : `${input.name}.css`;
  const f = await files.createFile(ctx, files.CreateFileInput.parse({ name, folderId: input.folderId, content: "" }));
  return { id: f.id };
});

export const addAssetFileAction = consoleAction(z.object({ name: files.FileName, assetId: Id, folderId: FolderField }), async (ctx, input) => {
  const f = await files.createFile(ctx, { name: input.name, assetId: input.assetId, folderId: input.folderId });
  return { id: f.id, path: f.path };
});

const Item = z.object({ type: z.enum(["folder", "file", "template"]), id: Id });

export const renameItemAction = consoleAction(Item.extend({ name: z.string().max(120) }), async (ctx, input) => {
  if (input.type === "folder") return { name: (await files.updateFolder(ctx, input.id, files.UpdateFolderInput.parse({ name: input.name }))).name };
  if (input.type === "file") return { name: (await files.updateFile(ctx, input.id, files.UpdateFileInput.parse({ name: input.name }))).name };
  return { name: (await templates.updateTemplate(ctx, input.id, templates.UpdateTemplateInput.parse({ name: input.name }))).name };
});

export const moveItemAction = consoleAction(Item.extend({ to: FolderField }), async (ctx, input) => {
  if (input.type === "folder") await files.updateFolder(ctx, input.id, { parentId: input.to });
  else if (input.type === "file") await files.updateFile(ctx, input.id, { folderId: input.to });
  else await templates.updateTemplate(ctx, input.id, { folderId: input.to });
  return { moved: true };
});

export const deleteItemAction = consoleAction(Item, async (ctx, input) => {
  if (input.type === "folder") await files.deleteFolder(ctx, input.id);
  else if (input.type === "file") await files.deleteFile(ctx, input.id);
  else await templates.deleteTemplates(ctx, [input.id]);
  return { deleted: true };
});
