/**
 * Turns a template (a published version, the current draft) or a node document plus data into
 * the caller-HTML document the render pipeline prints. Expansion runs in the request, so every
 * error it finds (missing values, wrong types, limits) answers the request with 400 instead of
 * becoming a failed render.
 */
import type { AssetRef } from "../assets/refs";
import { requireScope, type Ctx } from "../auth/context";
import { db } from "../db/client";
import { AppError, notFound } from "../errors";
import type { CallerDocument } from "../renders/schemas";
import { expand } from "./expand";
import { renderMarginTemplate } from "./margins";
import * as repo from "./repository";
import { ComponentContent, type NodeDocument } from "./schema";

/** What a render of a template or node document stores: the final document and where it came from. */
export type PreparedSource = {
  source: "document" | "templateVersion" | "preview" | "nodeDocument" | "report";
  document: CallerDocument;
  /** The files the page may load at http://assets.invalid/<name> (render_inputs.payload.assets). */
  assets?: AssetRef[];
  templateId?: string;
  templateVersionId?: string;
};

type Data = Record<string, unknown>;

/**
 * The stylesheets a composition names are workspace files, which arrive with their own issue;
 * until then no path can name one (spec: ASSET_INVALID, details name each file).
 */
function refuseStylesheets(paths: string[] | undefined) {
  if (!paths?.length) return;
  throw new AppError("ASSET_INVALID", `Stylesheet ${paths[0]} is not a file of the template's folder`, {
    details: paths.map((p, i) => ({ path: `composition.stylesheets.${i}`, message: `no workspace file ${p}` })),
  });
}

/**
 * Expands component content with data in the render language `lang` (spec: Values and bindings >
 * format locale): the body, the Handlebars header and footer, and the page settings with the
 * page's own locale set to the same language.
 */
export function prepareDocument(content: ComponentContent, data: Data, lang: string): CallerDocument {
  const { composition, settings } = content;
  refuseStylesheets(composition.stylesheets);
  const { html } = expand({ root: composition.root, components: composition.components, lang }, data);
  const doc: CallerDocument = { html, settings: { ...settings, locale: lang } };
  if (composition.header) doc.header = renderMarginTemplate(composition.header, data, "header");
  if (composition.footer) doc.footer = renderMarginTemplate(composition.footer, data, "footer");
  return doc;
}

/** A stored draft or version passed validation when it was saved; parsing again gives the typed tree. */
function storedContent(content: unknown): ComponentContent {
  return ComponentContent.parse(content);
}

export async function fromTemplateVersion(ctx: Ctx, versionId: string, data: Data, lang?: string): Promise<PreparedSource> {
  const v = await repo.findVersion(db(), ctx.workspaceId, versionId);
  if (!v) throw notFound("template version", versionId);
  const content = storedContent(v.content);
  return {
    source: "templateVersion",
    templateId: v.templateId,
    templateVersionId: v.id,
    document: prepareDocument(content, data, lang ?? content.settings?.locale ?? "en-US"),
  };
}

/** The template's current draft (template:read as well as render:create). */
/**
 * The template's draft prepared for a preview. With `unsaved` (content an editor has not saved yet,
 * checked as a save checks it), that content is rendered in the draft's place: the console's live
 * preview shows edits as they are typed without saving a revision per pause.
 */
export async function fromDraft(ctx: Ctx, templateId: string, data: Data, locale: string | undefined, unsaved?: ComponentContent): Promise<PreparedSource> {
  requireScope(ctx, "template:read", "preview template drafts");
  const t = await repo.findTemplate(db(), ctx.workspaceId, templateId);
  if (!t) throw notFound("template", templateId);
  const content = unsaved ?? storedContent(t.draft);
  return { source: "preview", templateId: t.id, document: prepareDocument(content, data, locale ?? content.settings?.locale ?? "en-US") };
}

/** A node document: the same components with literal values only, and stylesheets as CSS text. */
export function fromNodeDocument(node: NodeDocument): PreparedSource {
  const lang = node.settings?.locale ?? "en-US";
  const { html } = expand({ root: node.root, components: node.components, css: node.stylesheets, lang, literalOnly: true }, {});
  return { source: "nodeDocument", document: { html, settings: { ...node.settings, locale: lang } } };
}
