/**
 * The files a component template uses besides its content: its stylesheets (workspace files,
 * loaded and resolved to final CSS) and its images (uploaded assets named by ID). A draft's are
 * resolved at each preview; a version's were resolved when it was published and are stored with
 * it (`template_versions.resources`), so later edits of a stylesheet or the deletion of an asset
 * change no published version (spec: Versioning 5).
 */
import { z } from "zod";
import { AssetRef, blobKey } from "../documents/asset-refs";
import type { Executor } from "../db/client";
import { AppError, limitExceeded, type ErrorDetail } from "../errors";
import { loadStylesheets, sourceLimitExceeded, STYLESHEET_LIMITS, type AssetInfo } from "../workspace-files/stylesheets";
import { forEachComponent } from "./expand";
import { parsedOnce } from "./parsed-once";
import * as repo from "./repository";
import type { ComponentNode, ReusableComponent } from "./schema";

/** spec: Limits > Templates and workspace files: fonts, images and workbooks per template. */
export const RESOURCE_LIMITS = { files: 500, bytes: 20 * 1024 * 1024 } as const;

/** Image asset kinds an image component can show. */
export const IMAGE_KINDS = new Set(["image", "svg"]);

/**
 * What a template renders with besides its content. Stored as JSON on a published version.
 * `images` maps each asset ID the template names literally to its blob; `files` are what the
 * stylesheets' url()s load (fonts, background images).
 */
export const TemplateResources = z.object({
  stylesheets: z.array(z.string()),
  files: z.array(AssetRef),
  images: z.record(z.string(), AssetRef),
});
export type TemplateResources = z.infer<typeof TemplateResources>;

export const noResources: TemplateResources = { stylesheets: [], files: [], images: {} };

const parsedResources = parsedOnce(TemplateResources);
/**
 * A version's stored resources, parsed once per stored object (parsed-once.ts); versions published
 * before files existed have none.
 */
export function heldResources(value: unknown): TemplateResources {
  return value === null || value === undefined ? noResources : parsedResources(value);
}

/** The blobs (sha256) a set of resources loads, each once. */
export function blobsOf(r: TemplateResources): string[] {
  return [...new Set([...r.files.map((f) => f.sha256), ...Object.values(r.images).map((i) => i.sha256)])];
}

type Tree = { root: ComponentNode; components?: Record<string, ReusableComponent>; stylesheets?: string[] };

/**
 * Resolves what a composition uses, now: every image ID it names literally must be a ready image
 * (kind image or svg) of the workspace, and every stylesheet a text/css workspace file seen from
 * `folderId`. `prefix` is where the composition is in the request (`composition`,
 * `nodeDocument`). `contentBytes` is the size of the template's own source, for the 5 MB limit.
 * Throws ASSET_INVALID naming each unusable file, LIMIT_EXCEEDED naming the limit.
 */
export async function resolveResources(
  ex: Executor,
  workspaceId: string,
  folderId: string | null,
  tree: Tree,
  options: { prefix: string; contentBytes: number; contentImages?: ReadonlyMap<string, string> },
): Promise<TemplateResources> {
  const lookup = (ids: string[]): Promise<AssetInfo[]> => repo.findAssets(ex, workspaceId, ids);
  const images = await resolveImages(workspaceId, tree, options.prefix, lookup, options.contentImages);
  const sheets = await loadStylesheets(ex, workspaceId, folderId, tree.stylesheets ?? [], lookup, `${options.prefix}.stylesheets`);
  if (options.contentBytes + sheets.sourceBytes > STYLESHEET_LIMITS.sourceBytes) throw sourceLimitExceeded();
  const resources: TemplateResources = { stylesheets: sheets.css, files: sheets.assets, images };
  checkFileLimits(resources);
  return resources;
}

/** Whether a composition names any stylesheet or literal image (publishing then locks the workspace's storage). */
export function usesFiles(tree: Tree): boolean {
  if (tree.stylesheets?.length) return true;
  let found = false;
  forEachComponent(tree, (n) => {
    if (n.type === "image" && typeof n.assetId === "string") found = true;
  });
  return found;
}

/** The literal image IDs of a composition, each with where it is first named. */
function literalImages(tree: Tree, prefix: string): Map<string, string> {
  const found = new Map<string, string>();
  forEachComponent(tree, (n, at) => {
    if (n.type === "image" && typeof n.assetId === "string" && !found.has(n.assetId)) found.set(n.assetId, `${prefix}.${at}.assetId`);
  });
  return found;
}

async function resolveImages(workspaceId: string, tree: Tree, prefix: string, lookup: (ids: string[]) => Promise<AssetInfo[]>, contentImages?: ReadonlyMap<string, string>) {
  const named = literalImages(tree, prefix);
  // Content fields' images (issue 25): shown by bindings to content.<name>, resolved and copied like literal ones.
  for (const [id, path] of contentImages ?? []) if (!named.has(id)) named.set(id, path);
  if (named.size === 0) return {};
  const found = new Map((await lookup([...named.keys()])).map((a) => [a.id, a]));
  const problems: ErrorDetail[] = [];
  const images: Record<string, AssetRef> = {};
  for (const [id, path] of named) {
    const a = found.get(id);
    if (!a) problems.push({ path, message: `no asset ${id} in this workspace` });
    else if (!IMAGE_KINDS.has(a.kind ?? "")) problems.push({ path, message: `asset ${id} is a ${a.kind}, not an image (kind image or svg)` });
    else if (a.state !== "ready") problems.push({ path, message: `asset ${id} has not been uploaded yet` });
    else images[id] = { name: a.sha256, key: blobKey(workspaceId, a.sha256), mediaType: a.mediaType, size: a.size, sha256: a.sha256, label: id };
  }
  if (problems.length) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    throw new AppError("ASSET_INVALID", `Image at ${problems[0]!.path} cannot be shown: ${problems[0]!.message}${more}`, { details: problems.slice(0, 100) });
  }
  return images;
}

/** spec: 500 fonts and images per template, 20 MiB together (each blob once). */
export function checkFileLimits(r: TemplateResources) {
  const bySha = new Map<string, number>();
  for (const f of [...r.files, ...Object.values(r.images)]) bySha.set(f.sha256, f.size);
  if (bySha.size > RESOURCE_LIMITS.files) {
    throw limitExceeded(`The template uses ${bySha.size} fonts and images; at most ${RESOURCE_LIMITS.files} (the limit of fonts and images per template)`);
  }
  let bytes = 0;
  for (const size of bySha.values()) bytes += size;
  if (bytes > RESOURCE_LIMITS.bytes) {
    throw limitExceeded(`The template's fonts and images take ${(bytes / 1024 / 1024).toFixed(1)} MiB; at most 20 MiB together (the limit of fonts and images per template)`);
  }
}

/**
 * What one render loads: the stylesheets' files and the images the expansion drew, one AssetRef
 * per blob. Images a hidden component names stay out of the render's input.
 */
export function renderAssets(r: TemplateResources, drawn: ReadonlySet<string>): AssetRef[] {
  const out = new Map<string, AssetRef>();
  for (const f of r.files) if (!out.has(f.sha256)) out.set(f.sha256, f);
  for (const id of drawn) {
    const image = r.images[id];
    if (image && !out.has(image.sha256)) out.set(image.sha256, image);
  }
  return [...out.values()];
}

/** The image map expansion takes: asset ID -> the name the page loads it by. */
export function imageNames(r: TemplateResources): Map<string, string> {
  return new Map(Object.entries(r.images).map(([id, ref]) => [id, ref.name]));
}
