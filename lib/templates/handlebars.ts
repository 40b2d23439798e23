/**
 * Handlebars templates (decisions.md: Templates; docs/api.md, Handlebars templates): what they use
 * besides their content, and turning content plus data into the caller-HTML document the render
 * pipeline prints. Every line of the template's own code (scripts, helpers.js, partials, the body,
 * header and footer) runs in the sandbox (lib/sandbox), never here.
 */
import { blobKey, type AssetRef } from "../documents/asset-refs";
import type { CallerDocument } from "../documents/caller-document";
import type { Executor } from "../db/client";
import { AppError, type ErrorDetail } from "../errors";
import { runSandbox, type SandboxConsoleEntry } from "../sandbox";
import { loadStylesheets, sourceLimitExceeded, STYLESHEET_LIMITS, type AssetInfo } from "../workspace-files/stylesheets";
import type { TemplateRow, TemplateVersionRow } from "../db/schema";
import { HandlebarsContent, parseHandlebarsContent } from "./handlebars-schema";
import * as repo from "./repository";
import { checkFileLimits, heldResources, IMAGE_KINDS, noResources, type TemplateResources } from "./resources";
import { parsedOnce } from "./parsed-once";
import { contentImages, templateData } from "./content-extras";
import { refuseViolations, schemaCheckOf } from "./data-check";
import { handlebarsFieldOf, inFields } from "./sandbox-fields";

type Data = Record<string, unknown>;

/** The size of a template's own source, for the limit of source with included files. */
const contentBytes = (content: unknown) => Buffer.byteLength(JSON.stringify(content));

/** spec: Limits > Templates and workspace files: template source with all included files, 5 MB; checked at save too. */
export function checkSourceSize(content: HandlebarsContent): void {
  if (contentBytes(content) > STYLESHEET_LIMITS.sourceBytes) throw sourceLimitExceeded();
}

/**
 * An asset a Handlebars source names literally, as caller HTML does: `http://assets.invalid/<assetId>`
 * (an `<img src>`, a CSS `url()` in a `<style>` of the template). Only literal IDs in the sources are
 * loaded; an ID that only the data or a helper produces is not (the page then shows a broken image).
 */
const ASSET_URL = /http:\/\/assets\.invalid\/([A-Za-z0-9_-]{1,128})/g;

/**
 * What an image content field reads as in a Handlebars template (issue 25): `{{content.banner}}` is
 * the address the page loads the field's asset from, the same literal addressing, so
 * `<img src="{{content.banner}}">` shows it. The asset is resolved and copied like a literal one.
 */
export const assetAddress = (assetId: string) => `http://assets.invalid/${assetId}`;

/** The sources scanned for asset URLs, each with the path errors name. */
function sources(content: HandlebarsContent): [string, string][] {
  const out: [string, string][] = [["templateHtml", content.templateHtml]];
  if (content.header) out.push(["header", content.header]);
  if (content.footer) out.push(["footer", content.footer]);
  for (const [name, source] of Object.entries(content.partials ?? {})) out.push([`partials.${name}`, source]);
  return out;
}

function literalAssets(content: HandlebarsContent): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, text] of sources(content)) {
    for (const m of text.matchAll(ASSET_URL)) if (!found.has(m[1]!)) found.set(m[1]!, path);
  }
  return found;
}

/** Whether the content names a stylesheet or an asset (publishing then locks the workspace's storage). */
export function usesHandlebarsFiles(content: HandlebarsContent): boolean {
  return !!content.stylesheets?.length || literalAssets(content).size > 0 || contentImages(content).size > 0;
}

/**
 * Resolves what a Handlebars template uses, now (a draft's preview, a publish): its stylesheets as
 * component templates' (workspace paths from the template's folder, with the fonts and images their
 * url()s load) and the assets its sources name. Throws ASSET_INVALID naming each unusable file,
 * LIMIT_EXCEEDED for the 5 MB of source with included files and the 500 files / 20 MiB.
 */
export async function handlebarsResources(ex: Executor, workspaceId: string, folderId: string | null, content: HandlebarsContent): Promise<TemplateResources> {
  const lookup = (ids: string[]): Promise<AssetInfo[]> => repo.findAssets(ex, workspaceId, ids);
  const named = literalAssets(content);
  // Image content fields' assets (a value, else the default), each named by the key that names it.
  const fieldImages = contentImages(content);
  for (const [id, path] of fieldImages) if (!named.has(id)) named.set(id, path);
  const images: Record<string, AssetRef> = {};
  if (named.size) {
    const found = new Map((await lookup([...named.keys()])).map((a) => [a.id, a]));
    const problems: ErrorDetail[] = [];
    for (const [id, path] of named) {
      const a = found.get(id);
      if (!a) problems.push({ path, message: `no asset ${id} in this workspace` });
      else if (fieldImages.has(id) && !IMAGE_KINDS.has(a.kind ?? "")) problems.push({ path: fieldImages.get(id)!, message: `asset ${id} is a ${a.kind}, not an image (kind image or svg)` });
      else if (a.state !== "ready") problems.push({ path, message: `asset ${id} has not been uploaded yet` });
      // why named by the asset ID: the page asks for http://assets.invalid/<assetId>, as the source says.
      else images[id] = { name: id, key: blobKey(workspaceId, a.sha256), mediaType: a.mediaType, size: a.size, sha256: a.sha256, label: id };
    }
    if (problems.length) {
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
      throw new AppError("ASSET_INVALID", `Asset named at ${problems[0]!.path} cannot be used: ${problems[0]!.message}${more}`, { details: problems.slice(0, 100) });
    }
  }
  const sheets = await loadStylesheets(ex, workspaceId, folderId, content.stylesheets ?? [], lookup, "stylesheets");
  if (contentBytes(content) + sheets.sourceBytes > STYLESHEET_LIMITS.sourceBytes) throw sourceLimitExceeded();
  const resources: TemplateResources = { stylesheets: sheets.css, files: sheets.assets, images };
  checkFileLimits(resources);
  return resources;
}

/** What a render loads: the stylesheets' files and every asset the sources name, one AssetRef per name. */
function renderAssets(r: TemplateResources): AssetRef[] {
  const out = new Map<string, AssetRef>();
  for (const f of [...r.files, ...Object.values(r.images)]) if (!out.has(f.name)) out.set(f.name, f);
  return [...out.values()];
}

/** The template's stylesheets at the start of the head (the template's own styles, later, win), or before the body. */
function withStylesheets(html: string, css: string[]): string {
  if (css.length === 0) return html;
  const style = css.map((c) => `<style>${c.replace(/<\/(style)/gi, "<\\/$1")}</style>`).join("");
  for (const open of [/<head(?:\s[^>]*)?>/i, /<html(?:\s[^>]*)?>/i, /<!doctype[^>]*>/i]) {
    const m = open.exec(html);
    if (m) return html.slice(0, m.index + m[0].length) + style + html.slice(m.index + m[0].length);
  }
  return style + html;
}

/** The content's files as the sandbox takes them: the body, header and footer are its steps. */
function sandboxFiles(content: HandlebarsContent) {
  const steps = [{ name: "template", source: content.templateHtml }];
  if (content.header) steps.push({ name: "header", source: content.header });
  if (content.footer) steps.push({ name: "footer", source: content.footer });
  return { helpers: content.helpers, partials: content.partials, scripts: content.scripts, steps };
}

/**
 * Publishing's check of a Handlebars draft (docs/api.md, Handlebars templates): every file parsed
 * or compiled in the sandbox for its syntax and its limits of syntax nodes and nesting, none of it
 * run, so that a published version never fails every render for a typo. Throws as a render's
 * steps do: 400 BAD_REQUEST naming the file and line, 400 LIMIT_EXCEEDED; `details[].path` is the
 * content field that holds the file (sandbox-fields.ts).
 */
export async function checkHandlebarsSyntax(content: HandlebarsContent): Promise<void> {
  await inFields(runSandbox({ ...sandboxFiles(content), data: {}, compileOnly: true }), (file) => handlebarsFieldOf(file, content));
}

export type PreparedHandlebars = { document: CallerDocument; assets: AssetRef[]; console: SandboxConsoleEntry[] };

/** What prepare.ts's PreparedSource takes from a Handlebars template (not imported: prepare.ts imports this file). */
type HandlebarsSource = PreparedHandlebars & { source: "templateVersion" | "report" | "preview"; templateId: string; templateVersionId?: string };

/**
 * Renders Handlebars content with data in the render language `lang`: the translation file of that
 * language reaches the data as `localization` (unless the data has that key), the scripts'
 * beforeRender reshape it, then body, header and footer are sandbox steps. The result is the
 * caller-HTML document with the page settings (locale set to the render language, the title
 * defaulting to the template's name), stylesheets and assets; `console` is what the steps logged.
 */
export async function prepareHandlebars(
  content: HandlebarsContent,
  data: Data,
  lang: string,
  options: { resources?: TemplateResources; title?: string } = {},
): Promise<PreparedHandlebars> {
  const resources = options.resources ?? noResources;
  // The data schema is applied in the same sandbox job, before the steps (one crossing).
  const result = await inFields(
    runSandbox({ ...sandboxFiles(content), data: templateData(content, data, lang, assetAddress), check: schemaCheckOf(content.dataSchema, data) }),
    (file) => handlebarsFieldOf(file, content),
  );
  refuseViolations(result.check);
  const html = result.outputs.template ?? "";
  const settings = content.settings;
  const doc: CallerDocument = { html: withStylesheets(html, resources.stylesheets), settings: { ...settings, locale: lang } };
  if (settings?.title === undefined && options.title !== undefined) doc.settings!.title = options.title;
  // why: the renderer turns the placeholders {{pageNumber}} and {{totalPages}} of a header into page
  // numbers; a data value reading "{{totalPages}}" must stay text, so no "{{" leaves these steps.
  if (content.header) doc.header = (result.outputs.header ?? "").replaceAll("{{", "{&#123;");
  if (content.footer) doc.footer = (result.outputs.footer ?? "").replaceAll("{{", "{&#123;");
  return { document: doc, assets: renderAssets(resources), console: result.console };
}

/** A published version's content, parsed once (parsed-once.ts); it passed the limits when it was saved. */
const versionContent = parsedOnce(HandlebarsContent);

/** A published Handlebars version with data: only what the version copied when it was published is used. */
export async function handlebarsFromVersion(
  v: Pick<TemplateVersionRow, "id" | "templateId" | "name" | "content" | "resources">,
  data: Data,
  lang: string | undefined,
  source: "templateVersion" | "report" = "templateVersion",
): Promise<HandlebarsSource> {
  const content = versionContent(v.content);
  const { document, assets, console } = await prepareHandlebars(content, data, lang ?? content.settings?.locale ?? "en-US", { resources: heldResources(v.resources), title: v.name });
  return { source, templateId: v.templateId, templateVersionId: v.id, document, assets, console };
}

/**
 * A Handlebars draft prepared for a preview, with its stylesheets and assets as they are now;
 * `unsaved` content (the console's live preview) is checked as a save checks it and rendered in
 * the draft's place.
 */
export async function handlebarsFromDraft(ex: Executor, t: TemplateRow, data: Data, locale: string | undefined, unsaved: unknown): Promise<HandlebarsSource> {
  let content: HandlebarsContent;
  if (unsaved === undefined) content = HandlebarsContent.parse(t.draft);
  else {
    content = parseHandlebarsContent(unsaved);
    checkSourceSize(content);
  }
  const resources = await handlebarsResources(ex, t.workspaceId, t.folderId, content);
  const { document, assets, console } = await prepareHandlebars(content, data, locale ?? content.settings?.locale ?? "en-US", { resources, title: t.name });
  return { source: "preview", templateId: t.id, document, assets, console };
}
