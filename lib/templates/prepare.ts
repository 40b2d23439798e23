/**
 * Turns a template (a published version, the current draft) or a node document plus data into
 * the caller-HTML document the render pipeline prints, with the files it loads. Expansion runs in
 * the request, so every error it finds (missing values, wrong types, limits, unusable files)
 * answers the request with 400 instead of becoming a failed render.
 */
import type { AssetRef } from "../documents/asset-refs";
import { requireScope, type Ctx } from "../auth/context";
import { db } from "../db/client";
import { AppError, fromZodError, notFound } from "../errors";
import type { CallerDocument } from "../documents/caller-document";
import { expand } from "./expand";
import { handlebarsFromDraft, handlebarsFromVersion } from "./handlebars";
import { renderMargins } from "./margins";
import * as repo from "./repository";
import type { TemplateRow } from "../db/schema";
import { findVersionCached } from "./version-cache";
import { heldResources, imageNames, noResources, renderAssets, resolveResources, type TemplateResources } from "./resources";
import { parsedOnce } from "./parsed-once";
import { ComponentContent, type NodeDocument } from "./schema";
import { contentImages, templateData } from "./content-extras";
import { checkTemplateData } from "./data-check";

export type { PreparedSource } from "./prepared-source";
import type { PreparedSource } from "./prepared-source";

type Data = Record<string, unknown>;

export type PrepareOptions = {
  /** The template's stylesheets and images, resolved (a draft) or stored (a version). */
  resources?: TemplateResources;
  /** The template's name: the PDF's title unless settings.title is set (issue 10: document metadata). */
  title?: string;
  /** The data was already checked against the data schema (a draft's, before its files were looked up). */
  dataChecked?: boolean;
};


/**
 * Expands component content with data in the render language `lang` (spec: Values and bindings >
 * format locale): the body with the template's stylesheets and images, the Handlebars header and
 * footer, and the page settings with the page's own locale set to the same language and the
 * title defaulting to the template's name. Returns the files the page loads with it.
 */
export async function prepareTemplate(content: ComponentContent, data: Data, lang: string, options: PrepareOptions = {}): Promise<{ document: CallerDocument; assets: AssetRef[] }> {
  const { composition, settings } = content;
  const resources = options.resources ?? noResources;
  if (!options.dataChecked) await checkTemplateData(content.dataSchema, data);
  const input = templateData(content, data, lang);
  const { html, images } = expand(
    { root: composition.root, components: composition.components, css: resources.stylesheets, images: imageNames(resources), selectable: new Set(contentImages(content).keys()), lang },
    input,
  );
  const doc: CallerDocument = { html, settings: { ...settings, locale: lang } };
  if (settings?.title === undefined && options.title !== undefined) doc.settings!.title = options.title;
  Object.assign(doc, await renderMargins({ header: composition.header, footer: composition.footer }, input));
  return { document: doc, assets: renderAssets(resources, images) };
}

/** prepareTemplate's document alone (the benchmark compares it with the template render). */
export async function prepareDocument(content: ComponentContent, data: Data, lang: string, options: PrepareOptions = {}): Promise<CallerDocument> {
  return (await prepareTemplate(content, data, lang, options)).document;
}

/** Unsaved component content of a preview, checked as a save checks it (errors name the field under `content`). */
function parseUnsaved(content: unknown): ComponentContent {
  const parsed = ComponentContent.safeParse(content);
  if (!parsed.success) throw fromZodError(parsed.error, ["content"]);
  return parsed.data;
}

/** A stored draft or version passed validation when it was saved; parsing again gives the typed tree. */
function storedContent(content: unknown): ComponentContent {
  return ComponentContent.parse(content);
}
/** A published version's, parsed once (parsed-once.ts). */
const versionContent = parsedOnce(ComponentContent);

/**
 * A version's resources as published. A version published before workspace files existed copied
 * none; if its content names stylesheets, it cannot be rendered as it was meant to look.
 */
export function versionResources(v: { version: number; resources: unknown }, content: ComponentContent): TemplateResources {
  if (v.resources === null && content.composition.stylesheets?.length) {
    throw new AppError("ASSET_INVALID", `Version ${v.version} was published before stylesheets could be used and holds none of them; publish the template again`, {
      details: content.composition.stylesheets.map((p, i) => ({ path: `composition.stylesheets.${i}`, message: `${p} was not copied into version ${v.version}` })),
    });
  }
  return heldResources(v.resources);
}

/** A published version with data: only what the version copied when it was published is used. */
export async function fromTemplateVersion(ctx: Ctx, versionId: string, data: Data, lang?: string): Promise<PreparedSource> {
  const v = await findVersionCached(ctx.workspaceId, versionId);
  if (!v) throw notFound("template version", versionId);
  if (v.kind === "workbook") throw workbookOnly(`Template version ${versionId}`);
  if (v.kind === "handlebars") return handlebarsFromVersion(v, data, lang);
  const content = versionContent(v.content);
  const { document, assets } = await prepareTemplate(content, data, lang ?? content.settings?.locale ?? "en-US", { resources: versionResources(v, content), title: v.name });
  return { source: "templateVersion", templateId: v.templateId, templateVersionId: v.id, document, assets };
}

/**
 * 404 NOT_FOUND for a workbook template asked for a PDF or an image (spec: Errors: a format the
 * template cannot render): it renders XLSX, through previews and the Reports API.
 */
function workbookOnly(what: string): AppError {
  return new AppError("NOT_FOUND", `${what} is a workbook template: it renders xlsx only, through POST /v1/reports/render or a preview with format xlsx`);
}

/** The size of a template's own source, for the limit of source with included files. */
export const contentBytes = (content: unknown) => Buffer.byteLength(JSON.stringify(content));

/**
 * The template's draft prepared for a preview (template:read as well as render:create), with its
 * stylesheets and images as they are now. With `unsaved` (content an editor has not saved yet,
 * checked as a save checks it), that content is rendered in the draft's place: the console's live
 * preview shows edits as they are typed without saving a revision per pause.
 */
export async function fromDraft(ctx: Ctx, templateId: string, data: Data, locale: string | undefined, unsaved?: unknown): Promise<PreparedSource> {
  requireScope(ctx, "template:read", "preview template drafts");
  const t = await repo.findTemplate(db(), ctx.workspaceId, templateId);
  if (!t) throw notFound("template", templateId);
  return fromDraftRow(ctx, t, data, locale, unsaved);
}

/** fromDraft for a template already read (a preview that looked at its kind first). */
export async function fromDraftRow(ctx: Ctx, t: TemplateRow, data: Data, locale: string | undefined, unsaved?: unknown): Promise<PreparedSource> {
  requireScope(ctx, "template:read", "preview template drafts");
  if (t.kind === "workbook") throw workbookOnly(`Template ${t.id}`);
  if (t.kind === "handlebars") return handlebarsFromDraft(db(), t, data, locale, unsaved);
  const content = unsaved === undefined ? storedContent(t.draft) : parseUnsaved(unsaved);
  await checkTemplateData(content.dataSchema, data); // first: before the draft's files are looked up
  const resources = await resolveResources(db(), ctx.workspaceId, t.folderId, content.composition, { prefix: "composition", contentBytes: contentBytes(content), contentImages: contentImages(content) });
  const { document, assets } = await prepareTemplate(content, data, locale ?? content.settings?.locale ?? "en-US", { resources, title: t.name, dataChecked: true });
  return { source: "preview", templateId: t.id, document, assets };
}

/** A node document: the same components with literal values only, and stylesheets as CSS text. */
export async function fromNodeDocument(ctx: Ctx, node: NodeDocument): Promise<PreparedSource> {
  const lang = node.settings?.locale ?? "en-US";
  const { images } = await resolveResources(db(), ctx.workspaceId, null, { root: node.root, components: node.components }, { prefix: "nodeDocument", contentBytes: 0 });
  const resources: TemplateResources = { stylesheets: node.stylesheets ?? [], files: [], images };
  const expanded = expand({ root: node.root, components: node.components, css: resources.stylesheets, images: imageNames(resources), lang, literalOnly: true }, {});
  return { source: "nodeDocument", document: { html: expanded.html, settings: { ...node.settings, locale: lang } }, assets: renderAssets(resources, expanded.images) };
}
