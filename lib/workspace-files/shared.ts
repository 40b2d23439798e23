/** What the folder and file verbs share: the answers' shapes, and the checks both make. */
import { requireScope, type Ctx } from "../auth/context";
import { type Executor } from "../db/client";
import type { WorkspaceFolderRow } from "../db/schema";
import { AppError, conflict, invalidValue, limitExceeded, notFound, type ErrorDetail } from "../errors";
import { type FolderTree } from "./lookup";
import { joinPath, MAX_FOLDER_DEPTH } from "./paths";
import * as repo from "./repository";
import { MAX_LISTED, MAX_TEXT_FILE_CHARS, ROOT, textExtensionsList, textMediaType, type Folder, type WorkspaceFile } from "./schemas";

// ---------------------------------------------------------------------------------------------
// Answers

export const toFolder = (f: WorkspaceFolderRow, path: string): Folder => {
  const out: Folder = { id: f.id, name: f.name, path, createdAt: f.createdAt.toISOString(), updatedAt: f.updatedAt.toISOString() };
  if (f.parentId) out.parentId = f.parentId;
  return out;
};

export function toFile(f: repo.FileListRow & { content?: string | null }, path: string, withContent: boolean): WorkspaceFile {
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
export const pathIn = (tree: FolderTree, parentId: string | null, name: string) => joinPath([...(tree.namesOf(parentId) ?? []), name]);

// ---------------------------------------------------------------------------------------------
// Shared checks

/** A folder filter of a list: `root` or nothing is the root (null). */
export const filterFolder = (v: string | undefined): string | null => (v === undefined || v === ROOT ? null : v);

/** The names of folder `id` from the root ([] for the root); 404 for a folder the workspace lacks. */
export function namesOfFolder(tree: FolderTree, id: string | null): string[] {
  if (id === null) return [];
  const names = tree.namesOf(id);
  if (!names) throw notFound("folder", id);
  return names;
}

/** 409 CONFLICT when a file or folder of the folder already has the name (spec: Conflict causes). */
export async function refuseTakenName(ex: Executor, ctx: Ctx, tree: FolderTree, parentId: string | null, name: string, exceptId?: string) {
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
export async function uniqueAsConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (sqlState(e) === "23505") throw conflict("A file or folder with that name already exists", { details: [{ path: "name", message: "is taken in this folder" }] });
    throw e;
  }
}

export function refuseTooDeep(path: string, levels: number, field: string) {
  if (levels <= MAX_FOLDER_DEPTH) return;
  const message = `folders nest at most ${MAX_FOLDER_DEPTH} levels; ${path} would be at level ${levels}`;
  throw limitExceeded(`Folder nesting limit: ${message}`, { details: [{ path: field, message }] });
}

export function refuseLongText(content: string) {
  if (content.length <= MAX_TEXT_FILE_CHARS) return;
  const message = `a workspace file holds at most 1,000,000 characters; this one has ${content.length.toLocaleString("en-US")}`;
  throw limitExceeded(`Workspace file limit: ${message}`, { details: [{ path: "content", message }] });
}

export function textTypeOf(name: string): string {
  const type = textMediaType(name);
  if (!type) throw invalidValue("name", `a text file's name ends in ${textExtensionsList} (upload other files as assets)`);
  return type;
}

/** The ready asset a file may point at (asset:manage), share-locked for the transaction. */
export async function assetForFile(ex: Executor, ctx: Ctx, assetId: string) {
  requireScope(ctx, "asset:manage", "use uploaded files as workspace files");
  const a = await repo.findAssetForFile(ex, ctx.workspaceId, assetId);
  if (!a) throw new AppError("ASSET_INVALID", `No asset ${assetId} in this workspace`, { details: [{ path: "assetId", message: `no asset ${assetId} in this workspace` }] });
  if (a.state !== "ready")
    throw new AppError("ASSET_INVALID", `Asset ${assetId} has not been uploaded yet`, { details: [{ path: "assetId", message: `asset ${assetId} is registered but its upload has not arrived` }] });
  return a;
}

/** Lists up to MAX_LISTED entries and says how many more there are. */
export function listed(entries: ErrorDetail[], total: number): ErrorDetail[] {
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

export const plural = (n: number, word: string) => (n === 0 ? "" : `${n} ${word}${n === 1 ? "" : "s"}`);
