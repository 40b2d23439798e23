/**
 * Workbook templates (docs/api.md, "Workbook templates"; issue 35): an uploaded workbook (asset kind
 * workbook) with Handlebars placeholders in its cells, and the template's helpers.js, partials and
 * beforeRender scripts for them. They render XLSX only, through previews and the Reports API; the
 * fill itself is lib/workbooks (helpers for the bytes, the sandbox for the values).
 */
import { z } from "zod";
import { blobKey, type AssetRef } from "../documents/asset-refs";
import { requireScope, type Ctx } from "../auth/context";
import { db, type Executor } from "../db/client";
import type { TemplateRow, TemplateVersionRow } from "../db/schema";
import { AppError } from "../errors";
import type { SandboxConsoleEntry } from "../sandbox";
import { fillWorkbookFile, placeholdersOf, planOf } from "../workbooks";
import { workbookValues } from "../workbooks/values";
import { checkContentExtras, contentImages, refuseProtoNames, templateContentExtras, templateData } from "./content-extras";
import { checkTemplateData } from "./data-check";
import { HANDLEBARS_LIMITS, parseWithLimits, Partials, SampleData, Scripts, source } from "./handlebars-schema";
import { parsedOnce } from "./parsed-once";
import * as repo from "./repository";
import { checkFileLimits, heldResources, type TemplateResources } from "./resources";

export const WorkbookContent = z
  .strictObject({
    /** The uploaded workbook (asset kind workbook) whose cells hold the placeholders. */
    workbook: z.strictObject({ assetId: z.string().min(1).max(128) }),
    helpers: source(HANDLEBARS_LIMITS.helpersChars, "helpers.js").optional(),
    partials: Partials.optional(),
    scripts: Scripts.optional(),
    sampleData: SampleData.optional(),
    ...templateContentExtras,
  })
  .superRefine(checkContentExtras)
  .meta({
    description: "The content of a workbook template: the uploaded workbook with Handlebars placeholders in its cells, helpers.js, partials, beforeRender scripts and sample data sets.",
    examples: [{ workbook: { assetId: "ast_01J9Z8" }, sampleData: [{ name: "Two lines", data: { number: "INV-1", lines: [{ name: "Paper", qty: 2 }] } }] }],
  });
export type WorkbookContent = z.infer<typeof WorkbookContent>;

/** Validates workbook content at save; errors name the field under `content` (limits 400 LIMIT_EXCEEDED). */
export function parseWorkbookContent(content: unknown): WorkbookContent {
  refuseProtoNames(content, ["partials"]);
  return parseWithLimits(WorkbookContent, content);
}

/**
 * The workbook a draft names, resolved now: an uploaded, ready asset of kind workbook in the
 * workspace. Stored with a version (its blob kept while the version exists, spec: Versioning 5).
 */
export async function workbookResources(ex: Executor, workspaceId: string, content: WorkbookContent): Promise<TemplateResources> {
  const ref = await workbookAsset(ex, workspaceId, content);
  const resources = { stylesheets: [], files: [ref], images: await workbookImages(ex, workspaceId, content, ref) };
  // spec: Limits > Templates and workspace files: fonts, images and workbooks per template, 500 and 20 MiB together.
  checkFileLimits(resources);
  return resources;
}

/** The uploaded workbook a draft names: a ready asset of kind workbook in the workspace (ASSET_INVALID otherwise). */
async function workbookAsset(ex: Executor, workspaceId: string, content: WorkbookContent): Promise<AssetRef> {
  const id = content.workbook.assetId;
  const [a] = await repo.findAssets(ex, workspaceId, [id]);
  const path = "workbook.assetId";
  const refuse = (message: string) => new AppError("ASSET_INVALID", `The workbook cannot be used: ${message}`, { details: [{ path, message }] });
  if (!a) throw refuse(`no asset ${id} in this workspace`);
  if (a.kind !== "workbook") throw refuse(`asset ${id} is a ${a.kind}, not a workbook (.xlsx)`);
  if (a.state !== "ready") throw refuse(`asset ${id} has not been uploaded yet`);
  return { name: "workbook", key: blobKey(workspaceId, a.sha256), mediaType: a.mediaType, size: a.size, sha256: a.sha256, label: id };
}

/**
 * The images `{{sheetImage …}}` may place: image assets named literally in the workbook's cells and
 * the image content fields' values, as Handlebars templates name theirs (docs/api.md), each a
 * ready PNG or JPEG of the workspace; a version keeps them as it keeps a template's images.
 */
async function workbookImages(ex: Executor, workspaceId: string, content: WorkbookContent, workbook: AssetRef): Promise<Record<string, AssetRef>> {
  const plan = await placeholdersOf(workbook);
  const named = new Map<string, string>();
  for (const s of plan.sheets) for (const r of s.rows) for (const c of r.cells) for (const m of c.source.match(/\bast_[0-9A-Za-z]{8,64}\b/g) ?? []) if (!named.has(m)) named.set(m, `sheet ${s.name}, cell ${c.ref}`);
  for (const [id, where] of contentImages(content)) if (!named.has(id)) named.set(id, where);
  if (!named.size) return {};
  const found = new Map((await repo.findAssets(ex, workspaceId, [...named.keys()])).map((x) => [x.id, x]));
  const problems: { path: string; message: string }[] = [];
  const images: Record<string, AssetRef> = {};
  for (const [id, where] of named) {
    const x = found.get(id);
    if (!x) problems.push({ path: where, message: `no asset ${id} in this workspace` });
    else if (x.kind !== "image") problems.push({ path: where, message: `asset ${id} is a ${x.kind}; a workbook shows PNG and JPEG images` });
    else if (x.state !== "ready") problems.push({ path: where, message: `asset ${id} has not been uploaded yet` });
    else images[id] = { name: id, key: blobKey(workspaceId, x.sha256), mediaType: x.mediaType, size: x.size, sha256: x.sha256, label: id };
  }
  if (problems.length) throw new AppError("ASSET_INVALID", `An image the workbook names cannot be used: ${problems[0]!.path}: ${problems[0]!.message}`, { details: problems });
  return images;
}

function workbookRef(resources: TemplateResources): AssetRef {
  const ref = resources.files.find((f) => f.name === "workbook");
  if (!ref) throw new AppError("ASSET_INVALID", "The version holds no workbook; publish the template again");
  return ref;
}

const codeOf = (c: WorkbookContent) => ({ helpers: c.helpers, partials: c.partials, scripts: c.scripts });

/**
 * Publishing's check: the workbook opens and its placeholders parse (each cell's syntax, in the
 * sandbox, none of it run), so a version never fails every report for a typo in a cell.
 */
export async function checkWorkbookTemplate(ex: Executor, workspaceId: string, content: WorkbookContent): Promise<void> {
  const ref = await workbookAsset(ex, workspaceId, content);
  await workbookValues(await placeholdersOf(ref), codeOf(content), {}, { compileOnly: true });
}

/** Publishing's check of a workbook whose bytes the caller holds (an import bringing its workbook along). */
export async function checkWorkbookBytes(bytes: Uint8Array, sha256: string, content: WorkbookContent): Promise<void> {
  await workbookValues(await planOf(bytes, sha256), codeOf(content), {}, { compileOnly: true });
}

export type WorkbookFile = { bytes: Uint8Array; console: SandboxConsoleEntry[]; templateId: string; name: string };

async function fill(content: WorkbookContent, resources: TemplateResources, data: Record<string, unknown>, lang: string) {
  await checkTemplateData(content.dataSchema, data);
  return fillWorkbookFile(workbookRef(resources), codeOf(content), templateData(content, data, lang), Object.values(resources.images));
}

const versionContent = parsedOnce(WorkbookContent);

/** A published workbook version filled with data: the workbook it copied when it was published. */
export async function workbookFromVersion(v: Pick<TemplateVersionRow, "templateId" | "name" | "content" | "resources">, data: Record<string, unknown>, lang: string): Promise<WorkbookFile> {
  const r = await fill(versionContent(v.content), heldResources(v.resources), data, lang);
  return { ...r, templateId: v.templateId, name: v.name };
}

/** A workbook draft filled for a preview, with its workbook as it is now; `unsaved` content is checked as a save checks it. */
export async function workbookFromDraft(ex: Executor, t: TemplateRow, data: Record<string, unknown>, lang: string, unsaved: unknown): Promise<WorkbookFile> {
  const content = unsaved === undefined ? WorkbookContent.parse(t.draft) : parseWorkbookContent(unsaved);
  const r = await fill(content, await workbookResources(ex, t.workspaceId, content), data, lang);
  return { ...r, templateId: t.id, name: t.name };
}

/** A workbook the console's picker offers. */
export type WorkbookChoice = { id: string; filename: string; size: number };

/** The workspace's uploaded workbooks, newest first, for the create dialog and the editor (template:read). */
export async function workbookChoices(ctx: Ctx): Promise<WorkbookChoice[]> {
  requireScope(ctx, "template:read");
  return (await repo.readyWorkbooks(db(), ctx.workspaceId, 200)).map((a) => ({ id: a.id, filename: a.filename, size: a.size }));
}

/** What the console lists beside the sample data: each sheet's placeholder cells, with the rows that repeat. */
export type WorkbookPlaceholders = { sheets: { name: string; rows: { row: number; each?: string; cells: { ref: string; source: string }[] }[] }[]; placeholders: string[] };

/**
 * The placeholders of an uploaded workbook (template:read), planned in the workbook helpers as a
 * render plans them. Throws ASSET_INVALID for an asset that is not a ready workbook, BAD_REQUEST
 * for a file that cannot be opened.
 */
export async function workbookPlaceholders(ctx: Ctx, assetId: string): Promise<WorkbookPlaceholders> {
  requireScope(ctx, "template:read");
  const plan = await placeholdersOf(await workbookAsset(db(), ctx.workspaceId, { workbook: { assetId } }));
  return {
    sheets: plan.sheets.map((s) => ({ name: s.name, rows: s.rows.map((r) => ({ row: r.row, ...(r.each ? { each: r.each } : {}), cells: r.cells.map((c) => ({ ref: c.ref, source: c.source })) })) })),
    placeholders: plan.placeholders,
  };
}
