/**
 * Workspace folders and files (decisions.md: Assets, folders, files): folders nested at most 20
 * levels, text files saved with expectedRevision, files backed by uploaded assets, names unique in
 * their folder ignoring case across files and folders, and refusals (409) for a clash, a folder
 * that holds anything and a file still in use. Structural changes take the workspace's advisory
 * lock (repository.lockWorkspaceFiles), so their checks never race; every change is audited.
 */
import { recordAudit } from "../audit";
import { actorRef, requireScope, type Ctx } from "../auth/context";
import { db, withTx, type Executor } from "../db/client";
import { newId } from "../db/ids";
import type { WorkspaceFileRow, WorkspaceFolderRow } from "../db/schema";
import { AppError, conflict, invalidValue, limitExceeded, notFound, type ErrorDetail } from "../errors";
import { decodeNameCursor, toNamePage, type Page } from "../paging";
import { folderTree, type FolderTree } from "./lookup";
import { joinPath, MAX_FOLDER_DEPTH } from "./paths";
import * as repo from "./repository";
import {
  MAX_LISTED,
  MAX_TEXT_FILE_CHARS,
  ROOT,
  textExtensionsList,
  textMediaType,
  type CreateFileInput,
  type CreateFolderInput,
  type FileEditor,
  type FileUsage,
  type Folder,
  type ListFilesQuery,
  type ListFoldersQuery,
  type SaveFileContentInput,
  type UpdateFileInput,
  type UpdateFolderInput,
  type WorkspaceFile,
} from "./schemas";
import { describeUsage, usagesOf } from "./usages";

export * from "./schemas";
export { fileUsages, describeUsage } from "./usages";
export { lockWorkspaceFiles } from "./repository";
export { folderTree, filesAtPaths, FolderTree } from "./lookup";
export { referencePath, workspaceReferences } from "./references";

// ---------------------------------------------------------------------------------------------
// Answers

const toFolder = (f: WorkspaceFolderRow, path: string): Folder => {
  const out: Folder = { id: f.id, name: f.name, path, createdAt: f.createdAt.toISOString(), updatedAt: f.updatedAt.toISOString() };
  if (f.parentId) out.parentId = f.parentId;
  return out;
};

function toFile(f: repo.FileListRow & { content?: string | null }, path: string, withContent: boolean): WorkspaceFile {
  const out: WorkspaceFile = {
    id: f.id,
    name: f.name,
    path,
    kind: f.kind,
    mediaType: f.mediaType,
    size: f.size,
    revision: f.revision,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
    updatedBy: { type: f.updatedByType, id: f.updatedById },
  };
  if (f.folderId) out.folderId = f.folderId;
  if (f.assetId) out.assetId = f.assetId;
  if (withContent && f.kind === "text") out.content = f.content ?? "";
  return out;
}

/** The path of `name` in the folder `parentId`, from the root. */
const pathIn = (tree: FolderTree, parentId: string | null, name: string) => joinPath([...(tree.namesOf(parentId) ?? []), name]);

// ---------------------------------------------------------------------------------------------
// Shared checks

/** A folder filter of a list: `root` or nothing is the root (null). */
const filterFolder = (v: string | undefined): string | null => (v === undefined || v === ROOT ? null : v);

/** The names of folder `id` from the root ([] for the root); 404 for a folder the workspace lacks. */
function namesOfFolder(tree: FolderTree, id: string | null): string[] {
  if (id === null) return [];
  const names = tree.namesOf(id);
  if (!names) throw notFound("folder", id);
  return names;
}

/** 409 CONFLICT when a file or folder of the folder already has the name (spec: Conflict causes). */
async function refuseTakenName(ex: Executor, ctx: Ctx, tree: FolderTree, parentId: string | null, name: string, exceptId?: string) {
  const holder = await repo.nameHolder(ex, ctx.workspaceId, parentId, name, exceptId);
  if (!holder) return;
  const where = pathIn(tree, parentId, holder.name);
  throw conflict(`A file or folder with that name already exists: the ${holder.type} ${where}`, {
    details: [{ path: "name", message: `the ${holder.type} ${where} has that name (names ignore letter case)` }],
  });
}

/** Postgres' SQLSTATE of a failed statement (drizzle wraps the driver's error as `cause`). */
function sqlState(e: unknown): string | undefined {
  for (let x: unknown = e, i = 0; x && typeof x === "object" && i < 4; x = (x as { cause?: unknown }).cause, i++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Runs a write; a unique violation (the name indexes, should a check ever be bypassed) answers 409 like the check. */
async function uniqueAsConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (sqlState(e) === "23505") throw conflict("A file or folder with that name already exists", { details: [{ path: "name", message: "is taken in this folder" }] });
    throw e;
  }
}

function refuseTooDeep(path: string, levels: number, field: string) {
  if (levels <= MAX_FOLDER_DEPTH) return;
  const message = `folders nest at most ${MAX_FOLDER_DEPTH} levels; ${path} would be at level ${levels}`;
  throw limitExceeded(`Folder nesting limit: ${message}`, { details: [{ path: field, message }] });
}

function refuseLongText(content: string) {
  if (content.length <= MAX_TEXT_FILE_CHARS) return;
  const message = `a workspace file holds at most 1,000,000 characters; this one has ${content.length.toLocaleString("en-US")}`;
  throw limitExceeded(`Workspace file limit: ${message}`, { details: [{ path: "content", message }] });
}

function textTypeOf(name: string): string {
  const type = textMediaType(name);
  if (!type) throw invalidValue("name", `a text file's name ends in ${textExtensionsList} (upload other files as assets)`);
  return type;
}

/** The ready asset a file may point at (asset:manage), share-locked for the transaction. */
async function assetForFile(ex: Executor, ctx: Ctx, assetId: string) {
  requireScope(ctx, "asset:manage", "use uploaded files as workspace files");
  const a = await repo.findAssetForFile(ex, ctx.workspaceId, assetId);
  if (!a) throw new AppError("ASSET_INVALID", `No asset ${assetId} in this workspace`, { details: [{ path: "assetId", message: `no asset ${assetId} in this workspace` }] });
  if (a.state !== "ready")
    throw new AppError("ASSET_INVALID", `Asset ${assetId} has not been uploaded yet`, { details: [{ path: "assetId", message: `asset ${assetId} is registered but its upload has not arrived` }] });
  return a;
}

/** Lists up to MAX_LISTED entries and says how many more there are. */
function listed(entries: ErrorDetail[], total: number): ErrorDetail[] {
  const shown = entries.slice(0, MAX_LISTED);
  return total > shown.length ? [...shown, { message: `and ${total - shown.length} more` }] : shown;
}

/**
 * For lib/templates: checks inside the caller's transaction that folder `folderId` is the
 * workspace's (404 otherwise), holding the workspace's folder lock so the folder cannot be
 * deleted or emptied-and-deleted before the template that names it commits.
 */
export async function requireFolder(ex: Executor, workspaceId: string, folderId: string): Promise<void> {
  await repo.lockWorkspaceFiles(ex, workspaceId);
  if (!(await repo.findFolder(ex, workspaceId, folderId))) throw notFound("folder", folderId);
}

// ---------------------------------------------------------------------------------------------
// Folders

/** Creates a folder in `parentId` (the root when absent): 409 for a taken name, 400 LIMIT_EXCEEDED past 20 levels. */
export async function createFolder(ctx: Ctx, input: CreateFolderInput): Promise<Folder> {
  requireScope(ctx, "template:write");
  const parentId = input.parentId ?? null;
  return withTx(async (tx) => {
    await repo.lockWorkspaceFiles(tx, ctx.workspaceId);
    const tree = await folderTree(tx, ctx.workspaceId);
    const parentNames = namesOfFolder(tree, parentId);
    const path = joinPath([...parentNames, input.name]);
    refuseTooDeep(path, parentNames.length + 1, "parentId");
    await refuseTakenName(tx, ctx, tree, parentId, input.name);
    const row = await uniqueAsConflict(() => repo.insertFolder(tx, { id: newId("fld"), workspaceId: ctx.workspaceId, parentId, name: input.name }));
    await recordAudit(tx, ctx, "workspace_folder.create", { type: "workspace_folder", id: row.id }, { name: row.name, path });
    return toFolder(row, path);
  });
}

export async function getFolder(ctx: Ctx, id: string): Promise<Folder> {
  requireScope(ctx, "template:read");
  const [tree, row] = await Promise.all([folderTree(db(), ctx.workspaceId), repo.findFolder(db(), ctx.workspaceId, id)]);
  const names = tree.namesOf(id);
  if (!row || !names) throw notFound("folder", id);
  return toFolder(row, joinPath(names));
}

/** The folders in `parentId` (the root when absent or `root`), by name ignoring case. */
export async function listFolders(ctx: Ctx, query: ListFoldersQuery): Promise<Page<Folder>> {
  requireScope(ctx, "template:read");
  const parentId = filterFolder(query.parentId);
  const tree = await folderTree(db(), ctx.workspaceId);
  namesOfFolder(tree, parentId);
  const rows = await repo.listFolders(db(), ctx.workspaceId, parentId, query.limit, decodeNameCursor(query.cursor));
  return toNamePage(rows, query.limit, (f) => toFolder(f, pathIn(tree, parentId, f.name)));
}

/** The folders from the root down to folder `id` (itself last), for breadcrumbs; 404 for a folder the workspace lacks. */
export async function folderTrail(ctx: Ctx, id: string): Promise<{ id: string; name: string }[]> {
  requireScope(ctx, "template:read");
  const tree = await folderTree(db(), ctx.workspaceId);
  if (!tree.folder(id)) throw notFound("folder", id);
  const trail: { id: string; name: string }[] = [];
  for (let at: string | null = id; at !== null && trail.length <= MAX_FOLDER_DEPTH; ) {
    const f: { id: string; name: string; parentId: string | null } = tree.folder(at)!;
    trail.unshift({ id: f.id, name: f.name });
    at = f.parentId;
  }
  return trail;
}

/**
 * The workspace's uploaded files a workspace file may point at (ready assets, newest first, up to
 * 200), for the console's "add an uploaded file" picker (asset:manage).
 */
export async function assetChoices(ctx: Ctx): Promise<{ id: string; filename: string; kind: string; mediaType: string; size: number }[]> {
  requireScope(ctx, "asset:manage");
  return repo.readyAssets(db(), ctx.workspaceId, 200);
}

/** Every folder of the workspace with its path, sorted by path (for pickers: move to, place a template in). */
export async function allFolders(ctx: Ctx): Promise<{ id: string; path: string }[]> {
  requireScope(ctx, "template:read");
  const tree = await folderTree(db(), ctx.workspaceId);
  return tree
    .all()
    .map((f) => ({ id: f.id, path: joinPath(tree.namesOf(f.id) ?? [f.name]) }))
    .sort((a, b) => a.path.localeCompare(b.path, "en", { sensitivity: "base" }));
}

/**
 * Renames and/or moves a folder (parentId null: to the root). Refuses a move into itself or a
 * folder inside it (400), past 20 levels for anything inside it (400 LIMIT_EXCEEDED), and a taken
 * name (409). Paths that templates and stylesheets name resolve against the new place from then on.
 */
export async function updateFolder(ctx: Ctx, id: string, input: UpdateFolderInput): Promise<Folder> {
  requireScope(ctx, "template:write");
  return withTx(async (tx) => {
    await repo.lockWorkspaceFiles(tx, ctx.workspaceId);
    const tree = await folderTree(tx, ctx.workspaceId);
    const folder = tree.folder(id);
    if (!folder) throw notFound("folder", id);
    const before = joinPath(tree.namesOf(id)!);
    const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
    const name = input.name ?? folder.name;
    const parentNames = namesOfFolder(tree, parentId);
    const path = joinPath([...parentNames, name]);
    if (parentId !== folder.parentId) {
      for (let at: string | null = parentId; at !== null; at = tree.folder(at)?.parentId ?? null) {
        if (at === id) throw invalidValue("parentId", `cannot move ${before} into itself or a folder inside it`);
      }
      refuseTooDeep(`${path}${deepestBelow(tree, id)}`, parentNames.length + height(tree, id), "parentId");
    }
    await refuseTakenName(tx, ctx, tree, parentId, name, id);
    const row = await uniqueAsConflict(() => repo.updateFolder(tx, ctx.workspaceId, id, { name, parentId }));
    if (!row) throw notFound("folder", id);
    await recordAudit(tx, ctx, "workspace_folder.update", { type: "workspace_folder", id }, { name, path, previousPath: before });
    return toFolder(row, path);
  });
}

/** Levels from the folder down to its deepest folder, the folder itself counted (1 when it holds no folders). */
function height(tree: FolderTree, id: string): number {
  return 1 + Math.max(0, ...childrenOf(tree, id).map((c) => height(tree, c.id)));
}

/** The path below `id` to its deepest folder ("" or "/a/b"), for the limit's message. */
function deepestBelow(tree: FolderTree, id: string): string {
  let best = "";
  for (const c of childrenOf(tree, id)) {
    const below = `/${c.name}${deepestBelow(tree, c.id)}`;
    if (below.split("/").length > best.split("/").length) best = below;
  }
  return best;
}

const childrenOf = (tree: FolderTree, id: string) => tree.all().filter((f) => f.parentId === id);

/** Deletes an empty folder; 409 while it holds folders, files or templates (details list them). */
export async function deleteFolder(ctx: Ctx, id: string): Promise<{ deleted: true; id: string }> {
  requireScope(ctx, "template:write");
  return withTx(async (tx) => {
    await repo.lockWorkspaceFiles(tx, ctx.workspaceId);
    const tree = await folderTree(tx, ctx.workspaceId);
    const names = tree.namesOf(id);
    if (!names) throw notFound("folder", id);
    const path = joinPath(names);
    const held = await repo.folderContents(tx, ctx.workspaceId, id, MAX_LISTED);
    const count = (rows: { total: number }[]) => rows[0]?.total ?? 0;
    const [nFolders, nFiles, nTemplates] = [count(held.folders), count(held.files), count(held.templates)];
    const total = nFolders + nFiles + nTemplates;
    if (total > 0) {
      const parts = [plural(nFolders, "folder"), plural(nFiles, "file"), plural(nTemplates, "template")].filter(Boolean);
      const entries: ErrorDetail[] = [
        ...held.folders.map((f) => ({ message: `folder ${path}/${f.name} (${f.id})` })),
        ...held.files.map((f) => ({ message: `file ${path}/${f.name} (${f.id})` })),
        ...held.templates.map((t) => ({ message: `template ${t.id} (${t.name})` })),
      ];
      throw conflict(`The folder ${path} is not empty: it holds ${parts.join(", ")}; move or delete them first`, { details: listed(entries, total) });
    }
    if (!(await repo.deleteFolder(tx, ctx.workspaceId, id))) throw notFound("folder", id);
    await recordAudit(tx, ctx, "workspace_folder.delete", { type: "workspace_folder", id }, { path });
    return { deleted: true as const, id };
  });
}

const plural = (n: number, word: string) => (n === 0 ? "" : `${n} ${word}${n === 1 ? "" : "s"}`);

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
