import type { Readable } from "node:stream";
import { requireScope, type Ctx } from "../auth/context";
import { db, withTx, type Executor, type Tx } from "../db/client";
import { newId } from "../db/ids";
import type { RenderFormat, RenderRow } from "../db/schema";
import { assetRefsForDocument } from "../assets";
import { AppError, conflict, notFound } from "../errors";
import { fileStore } from "../files/store";
import { downloadLink, verifyDownloadToken } from "../files/links";
import { resolveRenderDestination } from "../destinations";
import type { RenderDestinationInput } from "../destinations/schemas";
import { idempotent, type IdempotencyScope } from "../idempotency";
import { decodeCursor, toPage, type Page } from "../paging";
import { waitForRenderEnd, watchRenderEnd } from "./events";
import * as repo from "./repository";
import * as statements from "./statements";
import { fromDraft, fromNodeDocument, fromTemplateVersion, type PreparedSource } from "../templates/prepare";
import type { CallerDocument } from "../documents/caller-document";
import type { CreateRenderInput, Render, RenderListQuery, RenderVersionInput } from "./schemas";

export { BatchItemInput, CreateRenderInput, Render, RenderPage, RenderListQuery, RenderVersionInput, WaitQuery } from "./schemas";

export const contentTypes: Record<RenderFormat, string> = { pdf: "application/pdf", png: "image/png", jpeg: "image/jpeg" };
export const extensions: Record<RenderFormat, string> = { pdf: "pdf", png: "png", jpeg: "jpg" };

const ENDED = new Set(["succeeded", "failed", "cancelled"]);
export const hasEnded = (r: Pick<RenderRow, "state">) => ENDED.has(r.state);

/** The API view of a render; a succeeded render with a kept copy gets a fresh five-minute link. */
export function toRender(r: RenderRow): Render {
  const out: Render = {
    id: r.id,
    state: r.state,
    test: r.test,
    // why a cast: the column is text; every source written is one of renderSources (lib/templates/prepared-source.ts).
    source: r.source as Render["source"],
    format: r.format,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
  if (r.templateId) out.templateId = r.templateId;
  if (r.templateVersionId) out.templateVersionId = r.templateVersionId;
  // decisions.md: Renders > record fields: a batch item names its batch and position.
  if (r.batchId !== null && r.batchIndex !== null) {
    out.batchId = r.batchId;
    out.batchIndex = r.batchIndex;
  }
  if (r.startedAt) out.startedAt = r.startedAt.toISOString();
  if (r.finishedAt) out.finishedAt = r.finishedAt.toISOString();
  if (r.state === "succeeded") {
    out.result = { pageCount: r.pageCount ?? 0, outputBytes: r.outputBytes ?? 0, durationMs: r.durationMs ?? 0 };
    if (r.warnings?.length) out.result.warnings = r.warnings;
    if (r.fileKey) {
      const link = downloadLink({ key: r.fileKey, contentType: contentTypes[r.format], filename: `${r.id}.${extensions[r.format]}` });
      out.result = { downloadUrl: link.url, expiresAt: link.expiresAt, ...out.result };
    }
    if (r.destinationName !== null && r.destinationKey !== null) out.result.destination = { name: r.destinationName, key: r.destinationKey };
  }
  if (r.state === "failed" && r.error) out.error = r.error;
  return out;
}

/** What a render is made of: its output options and, prepared when it is created, its source. */
export type RenderRequest = {
  format: RenderFormat;
  image?: { page: number; scale: number };
  pageRanges?: string;
  test: boolean;
  /** An editor preview's person (docs/architecture.md, Editor previews); only with source editorPreview. */
  editor?: string;
  /** spec: Render destination: resolved when the render is created (the key is fixed then). */
  destination?: RenderDestinationInput;
  /** Builds the document (expanding templates); runs only when the render is really created. */
  prepare: () => Promise<PreparedSource> | PreparedSource;
};

/** The sources of POST /v1/renders: caller HTML, a published version, a draft preview, a node document. */
export function renderRequest(ctx: Ctx, input: Omit<CreateRenderInput, "waitMs">): RenderRequest {
  const prepare = (): Promise<PreparedSource> | PreparedSource => {
    if (input.templateVersionId !== undefined) return fromTemplateVersion(ctx, input.templateVersionId, input.data ?? {});
    if (input.preview) return fromDraft(ctx, input.preview.templateId, input.preview.data ?? {}, input.preview.locale);
    if (input.nodeDocument) return fromNodeDocument(ctx, input.nodeDocument);
    return fromCallerDocument(ctx, input.document!);
  };
  return { format: input.format, image: input.image, pageRanges: input.pageRanges, test: input.test, destination: input.destination, prepare };
}

/** Caller HTML; its `assetIds` become the render's asset list (one query, only when it names some). */
function fromCallerDocument(ctx: Ctx, document: CallerDocument): Promise<PreparedSource> | PreparedSource {
  if (!document.assetIds?.length) return { source: "document", document };
  return assetRefsForDocument(db(), ctx.workspaceId, document.assetIds).then((assets) => ({ source: "document" as const, document, assets }));
}

/** A render ready to insert: its row and its input (statements.insertRender). */
export type PreparedRender = { row: statements.NewRender; payload: RenderPayload };
export type RenderPayload = { document: CallerDocument; assets?: PreparedSource["assets"] };

/**
 * Validates and prepares one render request without writing anything: expands its source and
 * resolves its destination (`destinationPath` names the request field in errors, such as
 * items.3.destination). Shared by single renders and batch items.
 */
export async function prepareRender(
  ex: Executor,
  ctx: Ctx,
  request: RenderRequest,
  id: string,
  destinationPath = "destination",
): Promise<PreparedRender> {
  const prepared = await request.prepare();
  const destination = request.destination && (await resolveRenderDestination(ex, ctx, request.destination, id, extensions[request.format], destinationPath));
  // spec: Monthly documents: while the workspace has a monthly document allowance, every preview
  // is a watermarked test render, so trying a draft never uses up documents (images of a draft
  // too: they are pictures of its PDF; docs/api.md).
  // docs/architecture.md, Editor previews: the console's previews are always test renders.
  const test = request.test || prepared.source === "editorPreview" || (prepared.source === "preview" && (await repo.hasDocumentAllowance(ex, ctx.workspaceId)));
  return {
    row: {
      id,
      workspaceId: ctx.workspaceId,
      test,
      source: prepared.source,
      format: request.format,
      templateId: prepared.templateId,
      templateVersionId: prepared.templateVersionId,
      requestId: ctx.requestId,
      ...destination,
      options: {
        ...(request.format !== "pdf" ? { image: { page: request.image?.page ?? 1, scale: request.image?.scale ?? 1 } } : {}),
        ...(request.pageRanges ? { pageRanges: request.pageRanges } : {}),
        ...(prepared.source === "editorPreview" && request.editor ? { editor: request.editor } : {}),
      },
    },
    payload: prepared.assets?.length ? { document: prepared.document, assets: prepared.assets } : { document: prepared.document },
  };
}

/**
 * Creates a render and queues it (the row is the queue entry; the workers are woken when it
 * commits), then waits up to `waitMs` for it to end, woken by NOTIFY. The wait is registered
 * before the render commits, so even an instant end is seen, and the notification carries the
 * ended fields, so the answer needs no other read. With an
 * Idempotency-Key, a repeat returns the first render (replayed: true) and waits again without
 * preparing the source a second time.
 */
export async function createRender(
  ctx: Ctx,
  request: RenderRequest,
  idempotency: Omit<IdempotencyScope, "workspaceId"> | undefined,
  waitMs: number,
): Promise<{ render: RenderRow; replayed: boolean }> {
  requireScope(ctx, "render:create");
  const id = newId("rnd");
  const watch = waitMs > 0 ? await watchRenderEnd(id) : undefined;
  let created: RenderRow | undefined;
  const run = async (ex: Executor) => {
    const create = async () => {
      const prepared = await prepareRender(ex, ctx, request, id);
      created = await statements.insertRender(ex, prepared.row, prepared.payload);
    };
    if (!idempotency) {
      await create();
      return { resourceId: id, replayed: false };
    }
    return idempotent(ex as Tx, { ...idempotency, workspaceId: ctx.workspaceId }, id, create);
  };
  // why: without a key, the single statement of insertRender needs no transaction round trips.
  const { resourceId, replayed } = await (idempotency ? withTx(run) : run(db())).catch((e: unknown) => {
    watch?.cancel();
    throw e;
  });
  if (created && !replayed) {
    if (!watch) return { render: created, replayed };
    // why: the notice carries what changed when the render ended, so the answer needs no read.
    const fields = (await watch.wait(waitMs))?.fields;
    if (fields) return { render: { ...created, ...fields }, replayed };
    return { render: (await repo.findRender(db(), ctx.workspaceId, id)) ?? created, replayed };
  }
  watch?.cancel();
  const render = await repo.findRender(db(), ctx.workspaceId, resourceId);
  if (!render) throw notFound("render", resourceId); // deleted by retention since the first request
  return { render: await waitForRender(ctx, render, waitMs), replayed };
}

/**
 * A render of a published version made from the console (the version list's "Render…"): the very
 * request POST /v1/renders makes with templateVersionId, data, format and test, through createRender,
 * so the person's scopes (render:create), the workspace's allowances and the monthly documents apply as
 * they do to an API render, and it counts the same way (docs/api.md, Renders from the console). It does
 * not wait: the console opens the render's page, which follows it to its end.
 */
export async function renderVersion(ctx: Ctx, input: RenderVersionInput): Promise<Render> {
  const { render } = await createRender(ctx, renderRequest(ctx, input), undefined, 0);
  return toRender(render);
}

/**
 * spec: Limits > Renders > Input: what a prepared render's input weighs: the document, header,
 * footer and the files it loads (the batch limit of 64 MiB is on the sum over its items).
 */
export function inputBytes(payload: RenderPayload): number {
  const d = payload.document;
  return Buffer.byteLength(d.html) + Buffer.byteLength(d.header ?? "") + Buffer.byteLength(d.footer ?? "") + (payload.assets ?? []).reduce((n, a) => n + a.size, 0);
}

/** Waits up to `ms` for the render to end (woken by NOTIFY, no polling), then reads it. */
export async function waitForRender(ctx: Ctx, render: RenderRow, ms: number): Promise<RenderRow> {
  if (hasEnded(render) || ms <= 0) return render;
  await waitForRenderEnd(render.id, ms, async () => hasEnded((await repo.findRender(db(), ctx.workspaceId, render.id)) ?? render));
  return (await repo.findRender(db(), ctx.workspaceId, render.id)) ?? render;
}

export async function getRenderRow(ctx: Ctx, id: string): Promise<RenderRow> {
  const r = await repo.findRender(db(), ctx.workspaceId, id);
  if (!r) throw notFound("render", id);
  return r;
}

/**
 * One render of the workspace (render:read); 404 for unknown ids and other workspaces' ids alike.
 * With `waitMs`, the answer waits until the render has ended or the time is up (WaitQuery).
 */
export async function getRender(ctx: Ctx, id: string, waitMs = 0): Promise<Render> {
  requireScope(ctx, "render:read");
  return toRender(await waitForRender(ctx, await getRenderRow(ctx, id), waitMs));
}

/** A page of the workspace's renders, newest first, optionally of one state and test flag (render:read). */
export async function listRenders(ctx: Ctx, query: RenderListQuery): Promise<Page<Render>> {
  requireScope(ctx, "render:read");
  const filter = { state: query.state, test: query.test, batchId: query.batchId, source: query.source };
  const rows = await repo.listRenders(db(), ctx.workspaceId, query.limit, decodeCursor(query.cursor), filter);
  return toPage(rows, query.limit, toRender);
}

/**
 * Cancels a queued or processing render (render:cancel), in one statement that also deletes its
 * input. A processing render's worker is told through the stop notification and stops its work.
 * 409 once the render has ended.
 */
export async function cancelRender(ctx: Ctx, id: string): Promise<Render> {
  requireScope(ctx, "render:cancel");
  const ended = await statements.endActiveRender(db(), { id, workspaceId: ctx.workspaceId }, { state: "cancelled" });
  if (ended) return toRender(ended);
  const r = await getRenderRow(ctx, id);
  throw conflict(`Render ${id} already ended (${r.state}); only queued or processing renders can be cancelled`);
}

export type FileDownload = { body: Readable | Uint8Array; size?: number; contentType: string; filename: string };

/** The file of a succeeded render (render:read). 409 while it renders (retryable) or when it did not succeed. */
export async function getRenderFile(ctx: Ctx, id: string): Promise<FileDownload> {
  requireScope(ctx, "render:read");
  const r = await getRenderRow(ctx, id);
  if (r.state === "queued" || r.state === "processing") throw conflict(`Render ${id} is still ${r.state}; retry when it has ended`, { retryable: true });
  if (r.state !== "succeeded") throw conflict(`Render ${id} ${r.state}; it has no file`);
  // spec: Render destination > keepCopy false: no service copy; decisions.md: 404 when no copy was kept.
  if (!r.fileKey && !r.keepCopy) throw new AppError("NOT_FOUND", `Render ${id} kept no copy (keepCopy was false); its file is in its storage destination`);
  const file = r.fileKey ? await fileStore().get(r.fileKey) : null;
  if (!file) throw notFound("file for render", id);
  return { ...file, contentType: contentTypes[r.format], filename: `${r.id}.${extensions[r.format]}` };
}

/** The file behind a signed download link; 403 when the link expired or was altered, 404 when the file is gone. */
export async function downloadByToken(token: string): Promise<FileDownload> {
  const grant = verifyDownloadToken(token);
  const file = await fileStore().get(grant.key);
  if (!file) throw notFound("file");
  return { ...file, contentType: grant.contentType, filename: grant.filename };
}
