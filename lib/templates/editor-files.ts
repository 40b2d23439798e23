/**
 * What the console's template editor offers to pick: the workspace stylesheets of the template's
 * folder and below (to tick into composition.stylesheets) and the ready images (for an image
 * component's assetId). Reads only; both need template:read, so content editors can pick.
 */
import { blobKey } from "../documents/asset-refs";
import { requireScope, type Ctx } from "../auth/context";
import { db } from "../db/client";
import { notFound } from "../errors";
import { downloadLink } from "../files/links";
import { folderTree } from "../workspace-files/lookup";
import * as repo from "./repository";

/** At most this many stylesheets and images are offered. */
const MAX_CHOICES = 500;

/** A stylesheet the template can tick: its path from the template's folder, and from the root. */
export type StylesheetChoice = { path: string; fullPath: string };
/** A ready image asset, with a five-minute link to show it. */
export type ImageChoice = { id: string; filename: string; kind: string; mediaType: string; size: number; previewUrl: string };

/** The text/css files in the template's folder and its subfolders, by path from that folder. */
export async function stylesheetChoices(ctx: Ctx, templateId: string): Promise<{ folderPath: string; stylesheets: StylesheetChoice[] }> {
  requireScope(ctx, "template:read");
  const t = await repo.findTemplate(db(), ctx.workspaceId, templateId);
  if (!t) throw notFound("template", templateId);
  const [tree, files] = await Promise.all([folderTree(db(), ctx.workspaceId), repo.stylesheetFiles(db(), ctx.workspaceId, 5000)]);
  const base = tree.namesOf(t.folderId) ?? [];
  const stylesheets: StylesheetChoice[] = [];
  for (const f of files) {
    const folder = tree.namesOf(f.folderId);
    if (!folder || !base.every((name, i) => folder[i] === name)) continue;
    const names = [...folder, f.name];
    stylesheets.push({ path: names.slice(base.length).join("/"), fullPath: names.join("/") });
  }
  stylesheets.sort((a, b) => a.path.split("/").length - b.path.split("/").length || a.path.localeCompare(b.path));
  return { folderPath: base.join("/"), stylesheets: stylesheets.slice(0, MAX_CHOICES) };
}

/** The workspace's ready images (kinds image and svg), newest first, each with a link to preview it. */
export async function imageChoices(ctx: Ctx): Promise<ImageChoice[]> {
  requireScope(ctx, "template:read");
  const rows = await repo.readyImages(db(), ctx.workspaceId, MAX_CHOICES);
  return rows.map((a) => ({
    id: a.id,
    filename: a.filename,
    kind: a.kind,
    mediaType: a.mediaType,
    size: a.size,
    previewUrl: downloadLink({ key: blobKey(ctx.workspaceId, a.sha256), contentType: a.mediaType, filename: a.filename }).url,
  }));
}
