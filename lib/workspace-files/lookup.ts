import type { Executor } from "../db/client";
import type { WorkspaceFileRow } from "../db/schema";
import { folderOf, joinPath, resolvePath } from "./paths";
import * as repo from "./repository";

type FolderNode = { id: string; parentId: string | null; name: string };

/**
 * A workspace's folders, read once, to turn folder IDs into paths and paths into folders without a
 * query per level. Folder names are unique in their parent ignoring case, so lookups fold case.
 */
export class FolderTree {
  private readonly byId = new Map<string, FolderNode>();
  private readonly byParentAndName = new Map<string, FolderNode>();

  constructor(folders: FolderNode[]) {
    for (const f of folders) {
      this.byId.set(f.id, f);
      this.byParentAndName.set(FolderTree.slot(f.parentId, f.name), f);
    }
  }

  private static slot(parentId: string | null, name: string) {
    return `${parentId ?? ""}/${name.toLowerCase()}`;
  }

  /** The names from the root to the folder ([] for the root, null for an unknown folder). */
  namesOf(folderId: string | null): string[] | null {
    const names: string[] = [];
    let id = folderId;
    for (let guard = 0; id !== null; guard++) {
      const f = this.byId.get(id);
      if (!f || guard > 64) return null;
      names.unshift(f.name);
      id = f.parentId;
    }
    return names;
  }

  /** The folder at these names from the root: null for the root, undefined when there is none. */
  folderAt(names: readonly string[]): string | null | undefined {
    let id: string | null = null;
    for (const name of names) {
      const f = this.byParentAndName.get(FolderTree.slot(id, name));
      if (!f) return undefined;
      id = f.id;
    }
    return id;
  }

  folder(id: string): FolderNode | undefined {
    return this.byId.get(id);
  }

  all(): FolderNode[] {
    return [...this.byId.values()];
  }
}

export async function folderTree(ex: Executor, workspaceId: string): Promise<FolderTree> {
  return new FolderTree(await repo.folderNodes(ex, workspaceId));
}

/** What a path resolved to: the file (or undefined when none is there) and its full path. */
export type ResolvedFile = { path: string; names: string[]; file?: WorkspaceFileRow };

/**
 * Resolves workspace paths seen from a folder (a template's folder, a stylesheet's folder) to
 * files, with one query for all of them. A path that leaves the root resolves to nothing
 * (`names: []`, no file).
 */
export async function filesAtPaths(ex: Executor, workspaceId: string, tree: FolderTree, fromFolderId: string | null, paths: readonly string[]): Promise<ResolvedFile[]> {
  const from = tree.namesOf(fromFolderId) ?? [];
  const wanted = paths.map((p) => {
    const names = resolvePath(from, p);
    const folderId = names ? tree.folderAt(folderOf(names)) : undefined;
    return { names: names ?? [], folderId, name: names?.at(-1) };
  });
  const folderIds = [...new Set(wanted.filter((w) => w.folderId !== undefined && w.name).map((w) => w.folderId))];
  if (folderIds.length === 0) return wanted.map((w) => ({ path: joinPath(w.names), names: w.names }));
  const named = folderIds.filter((id): id is string => id !== null);
  const rows = await repo.filesInFolders(ex, workspaceId, named, folderIds.includes(null));
  const byFolderAndName = new Map(rows.map((r) => [`${r.folderId ?? ""}/${r.name.toLowerCase()}`, r]));
  return wanted.map((w) => ({
    path: joinPath(w.names),
    names: w.names,
    file: w.folderId === undefined || !w.name ? undefined : byFolderAndName.get(`${w.folderId ?? ""}/${w.name.toLowerCase()}`),
  }));
}
