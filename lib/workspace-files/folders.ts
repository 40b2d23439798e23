/** The folder verbs of workspace files (lib/workspace-files/index.ts says what the resource is). */
import { recordAudit } from "../audit";
import { requireScope, type Ctx } from "../auth/context";
import { db, withTx } from "../db/client";
import { newId } from "../db/ids";
import { conflict, invalidValue, notFound, type ErrorDetail } from "../errors";
import { decodeNameCursor, toNamePage, type Page } from "../paging";
import { folderTree, type FolderTree } from "./lookup";
import { joinPath, MAX_FOLDER_DEPTH } from "./paths";
import * as repo from "./repository";
import { MAX_LISTED, type CreateFolderInput, type Folder, type ListFoldersQuery, type UpdateFolderInput } from "./schemas";
import { toFolder, pathIn, filterFolder, namesOfFolder, refuseTakenName, uniqueAsConflict, refuseTooDeep, listed, plural } from "./shared";

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
