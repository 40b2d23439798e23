/** The file verbs of workspace files (lib/workspace-files/index.ts says what the resource is). */
import { recordAudit } from "../audit";
import { actorRef, requireScope, type Ctx } from "../auth/context";
import { db, withTx, type Executor } from "../db/client";
import { newId } from "../db/ids";
import type { WorkspaceFileRow } from "../db/schema";
import { AppError, conflict, invalidValue, notFound } from "../errors";
import { decodeNameCursor, toNamePage, type Page } from "../paging";
import { folderTree } from "./lookup";
import { joinPath } from "./paths";
import * as repo from "./repository";
import {
  type CreateFileInput,
  type FileEditor,
  type FileUsage,
  type ListFilesQuery,
  type SaveFileContentInput,
  type UpdateFileInput,
  type WorkspaceFile,
} from "./schemas";
import { describeUsage, usagesOf } from "./usages";
import { toFile, pathIn, filterFolder, namesOfFolder, refuseTakenName, uniqueAsConflict, refuseLongText, textTypeOf, assetForFile, listed, plural } from "./shared";

// ---------------------------------------------------------------------------------------------
// Files

/**
 * Creates a text file (`content`, its media type from the name's extension) or an asset-backed
 * one (`assetId`: a ready asset of the workspace, asset:manage; its media type and size). 409 for
 * a taken name; 400 LIMIT_EXCEEDED past 1,000,000 characters.
 */
export async function createFile(ctx: Ctx, input: CreateFileInput): Promise<WorkspaceFile> {
  requireScope(ctx, "template:write");
  const folderId = input.folderId ?? null;
  if (input.content !== undefined) refuseLongText(input.content);
  const mediaTypeOfText = input.content !== undefined ? textTypeOf(input.name) : undefined;
  return withTx(async (tx) => {
    // why the folder lock first, then the asset's row lock: one order for every path that takes both.
    await repo.lockWorkspaceFiles(tx, ctx.workspaceId);
    const actor = actorRef(ctx);
    let fields: Pick<WorkspaceFileRow, "kind" | "content" | "assetId" | "mediaType" | "size">;
    if (input.assetId !== undefined) {
      const a = await assetForFile(tx, ctx, input.assetId);
      fields = { kind: "asset", content: null, assetId: a.id, mediaType: a.mediaType, size: a.size };
    } else {
      const content = input.content ?? "";
      fields = { kind: "text", content, assetId: null, mediaType: mediaTypeOfText!, size: Buffer.byteLength(content, "utf8") };
    }
    const tree = await folderTree(tx, ctx.workspaceId);
    const path = joinPath([...namesOfFolder(tree, folderId), input.name]);
    await refuseTakenName(tx, ctx, tree, folderId, input.name);
    const row = await uniqueAsConflict(() =>
      repo.insertFile(tx, { id: newId("fil"), workspaceId: ctx.workspaceId, folderId, name: input.name, ...fields, updatedByType: actor.type, updatedById: actor.id }),
    );
    const details: Record<string, unknown> = { name: row.name, path, kind: row.kind };
    if (row.assetId) details.assetId = row.assetId;
    await recordAudit(tx, ctx, "workspace_file.create", { type: "workspace_file", id: row.id }, details);
    return toFile(row, path, true);
  });
}

async function fileRow(ex: Executor, ctx: Ctx, id: string): Promise<WorkspaceFileRow> {
  const f = await repo.findFile(ex, ctx.workspaceId, id);
  if (!f) throw notFound("file", id);
  return f;
}

/** One file, with its content when it is a text file. */
export async function getFile(ctx: Ctx, id: string): Promise<WorkspaceFile> {
  requireScope(ctx, "template:read");
  const [f, tree] = await Promise.all([fileRow(db(), ctx, id), folderTree(db(), ctx.workspaceId)]);
  return toFile(f, pathIn(tree, f.folderId, f.name), true);
}

/** The files in `folderId` (the root when absent or `root`), by name ignoring case, without content. */
export async function listFiles(ctx: Ctx, query: ListFilesQuery): Promise<Page<WorkspaceFile>> {
  requireScope(ctx, "template:read");
  const folderId = filterFolder(query.folderId);
  const tree = await folderTree(db(), ctx.workspaceId);
  namesOfFolder(tree, folderId);
  const rows = await repo.listFiles(db(), ctx.workspaceId, folderId, query.limit, { kind: query.kind, mediaType: query.mediaType }, decodeNameCursor(query.cursor));
  return toNamePage(rows, query.limit, (f) => toFile(f, pathIn(tree, folderId, f.name), false));
}

/**
 * Saves a text file's content when expectedRevision is current (revision + 1); 409 CONFLICT with
 * `current` (revision, when and by whom) when it is stale. Asset-backed files have no text to save.
 */
export async function saveFileContent(ctx: Ctx, id: string, input: SaveFileContentInput): Promise<WorkspaceFile> {
  requireScope(ctx, "template:write");
  refuseLongText(input.content);
  const actor = actorRef(ctx);
  return withTx(async (tx) => {
    const f = await fileRow(tx, ctx, id);
    if (f.kind !== "text") throw invalidValue("content", `${f.name} is an uploaded file (asset ${f.assetId}); point it at another asset with PATCH assetId`);
    const row = await repo.saveContent(tx, ctx.workspaceId, id, input.expectedRevision, {
      content: input.content,
      size: Buffer.byteLength(input.content, "utf8"),
      updatedByType: actor.type,
      updatedById: actor.id,
    });
    if (!row) throw await staleOrMissing(ctx, id, input.expectedRevision);
    await recordAudit(tx, ctx, "workspace_file.save", { type: "workspace_file", id }, { revision: row.revision });
    const tree = await folderTree(tx, ctx.workspaceId);
    return toFile(row, pathIn(tree, row.folderId, row.name), false);
  });
}

async function staleOrMissing(ctx: Ctx, id: string, expected: number): Promise<AppError> {
  const now = await repo.findFile(db(), ctx.workspaceId, id);
  if (!now) return notFound("file", id);
  const savedBy: FileEditor = { type: now.updatedByType, id: now.updatedById, ...(await repo.editorNames(db(), ctx.workspaceId, { type: now.updatedByType, id: now.updatedById })) };
  const who = savedBy.type === "user" ? (savedBy.email ?? savedBy.id) : savedBy.type === "apiKey" ? `API key ${savedBy.name ?? savedBy.id}` : `system (${savedBy.id})`;
  const savedAt = now.updatedAt.toISOString();
  return conflict(`The file is at revision ${now.revision} (saved by ${who} at ${savedAt}), not ${expected}; reload it and apply your change again`, {
    current: { revision: now.revision, updatedAt: savedAt, savedBy },
  });
}

/**
 * Renames and/or moves a file (folderId null: to the root), or points an asset-backed file at
 * another ready asset (asset:manage; revision + 1). A text file's new name must keep a text
 * extension (its media type follows it). Templates and stylesheets that named the old path
 * must be changed by their owners: a rename is not refused while the file is in use.
 */
export async function updateFile(ctx: Ctx, id: string, input: UpdateFileInput): Promise<WorkspaceFile> {
  requireScope(ctx, "template:write");
  return withTx(async (tx) => {
    await repo.lockWorkspaceFiles(tx, ctx.workspaceId);
    const f = await fileRow(tx, ctx, id);
    const change: Parameters<typeof repo.updateFile>[3] = {};
    if (input.assetId !== undefined) {
      if (f.kind !== "asset") throw invalidValue("assetId", `${f.name} is a text file; only an uploaded file can point at an asset`);
      const a = await assetForFile(tx, ctx, input.assetId);
      if (a.id !== f.assetId) Object.assign(change, { assetId: a.id, mediaType: a.mediaType, size: a.size, bumpRevision: true });
    }
    const name = input.name ?? f.name;
    if (f.kind === "text" && input.name !== undefined) change.mediaType = textTypeOf(name);
    const tree = await folderTree(tx, ctx.workspaceId);
    const folderId = input.folderId === undefined ? f.folderId : input.folderId;
    const before = pathIn(tree, f.folderId, f.name);
    const path = joinPath([...namesOfFolder(tree, folderId), name]);
    await refuseTakenName(tx, ctx, tree, folderId, name, id);
    const actor = actorRef(ctx);
    const row = await uniqueAsConflict(() => repo.updateFile(tx, ctx.workspaceId, id, { ...change, name, folderId, updatedByType: actor.type, updatedById: actor.id }));
    if (!row) throw notFound("file", id);
    const details: Record<string, unknown> = { name, path, previousPath: before };
    if (change.assetId) details.assetId = change.assetId;
    await recordAudit(tx, ctx, "workspace_file.update", { type: "workspace_file", id }, details);
    return toFile(row, path, false);
  });
}

/** Deletes a file; 409 while a template draft or a stylesheet uses it (details list each user). */
export async function deleteFile(ctx: Ctx, id: string): Promise<{ deleted: true; id: string }> {
  requireScope(ctx, "template:write");
  return withTx(async (tx) => {
    await repo.lockWorkspaceFiles(tx, ctx.workspaceId);
    const f = await fileRow(tx, ctx, id);
    const tree = await folderTree(tx, ctx.workspaceId);
    const path = pathIn(tree, f.folderId, f.name);
    const users = await usagesOf(tx, ctx.workspaceId, tree, f);
    if (users.length > 0) {
      throw conflict(`The file ${path} is still in use (${plural(users.length, "use")}); change or delete its users first`, {
        details: listed(users.map((u) => ({ message: describeUsage(u) })), users.length),
      });
    }
    if (!(await repo.deleteFile(tx, ctx.workspaceId, id))) throw notFound("file", id);
    await recordAudit(tx, ctx, "workspace_file.delete", { type: "workspace_file", id }, { path });
    return { deleted: true as const, id };
  });
}

/** Who uses a file now (template drafts, stylesheets); not paged. */
export async function listFileUsages(ctx: Ctx, id: string): Promise<{ items: FileUsage[] }> {
  requireScope(ctx, "template:read");
  const f = await fileRow(db(), ctx, id);
  return { items: await usagesOf(db(), ctx.workspaceId, await folderTree(db(), ctx.workspaceId), f) };
}
