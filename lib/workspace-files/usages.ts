/**
 * Who uses a workspace file: template drafts naming it among `composition.stylesheets` (resolved
 * from the template's folder) and text stylesheets naming it in url() or @import (resolved from
 * the stylesheet's folder). Published versions copied what they use, so they never count.
 */
import type { Executor } from "../db/client";
import type { WorkspaceFileRow } from "../db/schema";
import { folderTree, type FolderTree } from "./lookup";
import { folderOf, joinPath, resolvePath } from "./paths";
import { workspaceReferences } from "./references";
import * as repo from "./repository";
import type { FileUsage } from "./schemas";

type Target = Pick<WorkspaceFileRow, "id" | "name" | "folderId">;

/** Whether `path`, seen from the folder `from`, names the file `target` (names ignore case, as in the indexes). */
function names(tree: FolderTree, from: string | null, path: string, target: Target): boolean {
  const resolved = resolvePath(tree.namesOf(from) ?? [], path);
  if (!resolved || resolved.length === 0) return false;
  return resolved.at(-1)!.toLowerCase() === target.name.toLowerCase() && tree.folderAt(folderOf(resolved)) === target.folderId;
}

/** The users of `target`, templates first (by name), then stylesheets (by path). */
export async function usagesOf(ex: Executor, workspaceId: string, tree: FolderTree, target: Target): Promise<FileUsage[]> {
  const [tpls, sheets] = await Promise.all([repo.templatesWithStylesheets(ex, workspaceId), repo.stylesheetsMentioning(ex, workspaceId, target.name, target.id)]);
  const out: FileUsage[] = [];
  for (const t of tpls.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))) {
    const paths = Array.isArray(t.stylesheets) ? t.stylesheets : [];
    paths.forEach((p, i) => {
      if (typeof p === "string" && names(tree, t.folderId, p, target))
        out.push({ type: "template", id: t.id, name: t.name, as: "stylesheet", reference: p, field: `composition.stylesheets.${i}` });
    });
  }
  const sheetUsages: FileUsage[] = [];
  for (const s of sheets) {
    const path = joinPath([...(tree.namesOf(s.folderId) ?? []), s.name]);
    for (const ref of workspaceReferences(s.content ?? "")) {
      if (names(tree, s.folderId, ref.path, target)) sheetUsages.push({ type: "file", id: s.id, name: path, as: ref.kind, reference: ref.url });
    }
  }
  return [...out, ...sheetUsages.sort((a, b) => a.name.localeCompare(b.name))];
}

/**
 * The users of one file of the workspace (empty for an unknown file), for anyone who must refuse
 * or warn while a file is in use. Reads the folder tree itself; pass the executor of your
 * transaction to see its changes.
 */
export async function fileUsages(ex: Executor, workspaceId: string, fileId: string): Promise<FileUsage[]> {
  const file = await repo.findFile(ex, workspaceId, fileId);
  if (!file) return [];
  return usagesOf(ex, workspaceId, await folderTree(ex, workspaceId), file);
}

/** A usage as a sentence: "template tpl_x (Invoice) uses it as stylesheet brand/print.css". */
export function describeUsage(u: FileUsage): string {
  if (u.type === "template") return `template ${u.id} (${u.name}) uses it as stylesheet ${u.reference}`;
  return `stylesheet ${u.name} (${u.id}) uses it in ${u.as === "import" ? `@import "${u.reference}"` : `url(${u.reference})`}`;
}
