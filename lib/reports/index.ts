/**
 * Renders that answer with the file itself: the Reports API (POST /v1/reports/render, the newest
 * published version of a template found by name) and file previews of a draft
 * (POST /v1/templates/{id}/preview). Both wait for their render up to REPORTS_WAIT_MS (95 s):
 * then 504 RENDER_TIMEOUT naming the render, which goes on; a failed render answers 422.
 */
import { z } from "zod";
import { requireScope, type Ctx } from "../auth/context";
import { config } from "../config";
import { db, withTx } from "../db/client";
import { AppError, notFound } from "../errors";
import { fileStore } from "../files/store";
import { idempotent, requestHash } from "../idempotency";
import { contentTypes, createRender, extensions, type FileDownload } from "../renders";
import { supersedeEditorPreviews } from "../renders/statements";
import { JsonObject as Data, Locale } from "../documents/page-settings";
import { ImageOptions } from "../renders/schemas";
import { handlebarsFromVersion } from "../templates/handlebars";
import { fromDraftRow, prepareTemplate, versionResources, type PreparedSource } from "../templates/prepare";
import type { SandboxConsoleEntry } from "../sandbox";
import * as repo from "../templates/repository";
import { ComponentContent } from "../templates/schema";
import { dataSchemaOf } from "../templates";
import { countAnswer } from "../usage";
import { refusalError } from "../renders/admission";
import { workbookFromDraft, workbookFromVersion, type WorkbookFile } from "../templates/workbook";
import { countXlsxDocument, xlsxRefusal } from "./repository";
import { reportFormats, type ReportList } from "./schemas";

export { Report, ReportList, reportFormats } from "./schemas";


export const ReportRenderInput = z.strictObject({
  format: z.enum(["pdf", "png", "html", "xlsx"]),
  template: z.strictObject({ name: z.string().min(1).max(120) }),
  data: Data.optional(),
  locale: Locale.optional(),
});
export type ReportRenderInput = z.infer<typeof ReportRenderInput>;

export const PreviewInput = z
  .strictObject({
    data: Data.optional(),
    locale: Locale.optional(),
    format: z.enum(["pdf", "png", "html", "xlsx"]).default("pdf"),
    /** png only: the page to show and its scale, as for POST /v1/renders. */
    image: ImageOptions.optional(),
    /** Unsaved content to render in the draft's place (an editor's live preview); checked as a save checks it. */
    content: z.unknown().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.image && p.format !== "png") ctx.addIssue({ code: "custom", path: ["image"], message: "applies only to png output" });
  });
export type PreviewInput = z.infer<typeof PreviewInput>;

/**
 * A file answer names its render and the document's page count (for an image, of the document it
 * shows a page of). A Handlebars template's preview also carries what its sandbox steps logged.
 */
export type FileAnswer = (
  | { kind: "file"; file: FileDownload; renderId: string; pageCount: number }
  | { kind: "html"; html: string }
  | { kind: "xlsx"; bytes: Uint8Array; filename: string }
) & { console?: SandboxConsoleEntry[] };

/** spec: Limits > Request rates: Reports API renders and previews waiting their turn, per workspace. */
export const MAX_WAITING = 100;
const waiting = new Map<string, number>();

/** What each kind renders, as a refusal says it. */
const KIND_FORMATS = "component and Handlebars templates render pdf, png and html; workbook templates render xlsx";

/** 404 NOT_FOUND for a format the template's kind cannot render (spec: Errors). */
function cannotRender(what: string, format: string): AppError {
  return new AppError("NOT_FOUND", `${what} does not render ${format}: ${KIND_FORMATS}`);
}

/**
 * An XLSX document (docs/api.md, Workbook templates): refused while the workspace is suspended or
 * its month's documents are used up, counted as a document once made (spec: What counts), and with
 * an Idempotency-Key counted once per key. Creates no render and sends no webhook.
 */
async function xlsxAnswer(ctx: Ctx, make: () => Promise<WorkbookFile>, idem: { endpoint: string; key: string; requestHash: string } | undefined): Promise<FileAnswer> {
  const refusal = await xlsxRefusal(db(), ctx.workspaceId);
  if (refusal) throw refusalError(refusal);
  const file = await make();
  await withTx(async (tx) => {
    if (idem) await idempotent(tx, { workspaceId: ctx.workspaceId, ...idem }, `xlsx:${file.templateId}`, () => countXlsxDocument(tx, ctx.workspaceId));
    else await countXlsxDocument(tx, ctx.workspaceId);
  });
  return { kind: "xlsx", bytes: file.bytes, filename: `${file.name}.xlsx`, console: file.console };
}

/** spec: Scopes: a PDF from the Reports API or a preview also needs render:read. */
function requireScopes(ctx: Ctx, format: string, action: string) {
  requireScope(ctx, "render:create", action);
  requireScope(ctx, "template:read", action);
  if (format === "pdf") requireScope(ctx, "render:read", `receive a PDF from ${action.replace(/^render /, "")}`);
}

/**
 * POST /v1/reports/render: the newest published version of the template with that name. 404
 * NOT_FOUND when no published template of that name renders the format (spec: Errors): none by
 * that name, or one that cannot produce it (xlsx, which needs a
 * workbook template).
 */
export async function renderReport(ctx: Ctx, input: ReportRenderInput, idempotencyKey: string | undefined): Promise<FileAnswer> {
  requireScopes(ctx, input.format, "render reports");
  const version = await repo.newestVersionByName(db(), ctx.workspaceId, input.template.name);
  if (!version) throw notFound(`published template named "${input.template.name}"`);
  const format = input.format;
  if (!(reportFormats[version.kind] as readonly string[]).includes(format)) throw cannotRender(`The published template named "${input.template.name}" (a ${version.kind} template)`, format);
  // spec: Values and bindings: the Reports API renders in the request's locale, en-US when omitted.
  const lang = input.locale ?? "en-US";
  const idemOf = (endpoint: string) =>
    idempotencyKey ? { endpoint, key: idempotencyKey, requestHash: requestHash("POST", "/v1/reports/render", input) } : undefined;
  if (format === "xlsx") return xlsxAnswer(ctx, () => workbookFromVersion(version, input.data ?? {}, lang), idemOf("POST /v1/reports/render xlsx"));
  const prepare = async (): Promise<PreparedSource> => {
    if (version.kind === "handlebars") return handlebarsFromVersion(version, input.data ?? {}, lang, "report");
    const content = ComponentContent.parse(version.content);
    const { document, assets } = await prepareTemplate(content, input.data ?? {}, lang, { resources: versionResources(version, content), title: version.name });
    return { source: "report", templateId: version.templateId, templateVersionId: version.id, document, assets };
  };
  if (format === "html") return { kind: "html", html: (await prepare()).document.html };
  return renderAndWait(ctx, format as "pdf" | "png", prepare, idemOf("POST /v1/reports/render"));
}

/**
 * GET /v1/reports (not paged; template:read, spec Scopes: "list reports and read their data
 * schemas"): one report per template name with a published version, by name: the version the
 * Reports API renders by that name (the newest published among the templates of that name), its
 * formats and its data schema.
 */
export async function listReports(ctx: Ctx): Promise<ReportList> {
  requireScope(ctx, "template:read", "list reports");
  const rows = await repo.newestVersionPerName(db(), ctx.workspaceId);
  return {
    items: rows.map((r) => ({
      name: r.name,
      templateId: r.templateId,
      description: r.description,
      kind: r.kind,
      formats: [...reportFormats[r.kind]],
      version: { id: r.versionId, version: r.version, publishedAt: r.publishedAt.toISOString() },
      dataSchema: dataSchemaOf({ dataSchema: r.dataSchema }),
    })),
  };
}

/**
 * POST /v1/templates/{id}/preview: the current draft, as a file or as HTML. HTML creates no render
 * (spec: What counts: no allowance); once answered it is counted in the day's htmlPreviews.
 */
export async function previewTemplate(ctx: Ctx, templateId: string, input: PreviewInput): Promise<FileAnswer> {
  requireScopes(ctx, input.format, "preview template drafts");
  const format = input.format;
  const t = await repo.findTemplate(db(), ctx.workspaceId, templateId);
  if (!t) throw notFound("template", templateId);
  if (!(reportFormats[t.kind] as readonly string[]).includes(format)) throw cannotRender(`Template ${templateId} (a ${t.kind} template)`, format);
  if (format === "xlsx") {
    const lang = input.locale ?? "en-US";
    return xlsxAnswer(ctx, () => workbookFromDraft(db(), t, input.data ?? {}, lang, input.content), undefined);
  }
  // A failure of the template's code carries what it logged (AppError.console): the route answers it.
  const prepared = await fromDraftRow(ctx, t, input.data ?? {}, input.locale, input.content);
  const logged = prepared.console ? { console: prepared.console } : {};
  if (format === "html") {
    await countAnswer(ctx, "htmlPreviews");
    return { kind: "html", html: prepared.document.html, ...logged };
  }
  // docs/architecture.md, Editor previews: a signed-in person's preview (the console's) is a test
  // render with its own allowance; a newer one supersedes the person's preview still waiting.
  if (ctx.actor.type === "user") {
    const editor = ctx.actor.userId;
    await supersedeEditorPreviews(db(), ctx.workspaceId, editor);
    return { ...(await renderAndWait(ctx, format, () => ({ ...prepared, source: "editorPreview" }), undefined, input.image, editor)), ...logged };
  }
  return { ...(await renderAndWait(ctx, format, () => prepared, undefined, input.image)), ...logged };
}

async function renderAndWait(
  ctx: Ctx,
  format: "pdf" | "png",
  prepare: () => Promise<PreparedSource> | PreparedSource,
  idem: { endpoint: string; key: string; requestHash: string } | undefined,
  image?: { page: number; scale: number },
  editor?: string,
): Promise<FileAnswer> {
  const count = waiting.get(ctx.workspaceId) ?? 0;
  if (count >= MAX_WAITING) {
    throw new AppError("RATE_LIMITED", `${MAX_WAITING} reports and previews of this workspace are already waiting; retry in a few seconds`);
  }
  waiting.set(ctx.workspaceId, count + 1);
  try {
    const { render } = await createRender(ctx, { format, image, test: false, editor, prepare }, idem, config().REPORTS_WAIT_MS);
    if (render.state === "queued" || render.state === "processing") {
      throw new AppError("RENDER_TIMEOUT", `Render ${render.id} was not ready within ${Math.round(config().REPORTS_WAIT_MS / 1000)} s; it continues: fetch it with GET /v1/renders/${render.id} or repeat the request with the same Idempotency-Key`, { renderId: render.id });
    }
    if (render.state !== "succeeded") {
      const why = render.error ? `${render.error.diagnostic}: ${render.error.message}` : render.state;
      throw new AppError("RENDER_FAILED", `Render ${render.id} ${render.state === "cancelled" ? "was cancelled" : `failed (${why})`}`, { renderId: render.id });
    }
    const file = render.fileKey ? await fileStore().get(render.fileKey) : null;
    if (!file) throw notFound("file for render", render.id);
    return { kind: "file", renderId: render.id, pageCount: render.pageCount ?? 0, file: { ...file, contentType: contentTypes[render.format], filename: `${render.id}.${extensions[render.format]}` } };
  } finally {
    const left = (waiting.get(ctx.workspaceId) ?? 1) - 1;
    if (left > 0) waiting.set(ctx.workspaceId, left);
    else waiting.delete(ctx.workspaceId);
  }
}
