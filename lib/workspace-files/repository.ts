import { and, desc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../db/client";
import type { NameCursor } from "../paging";
import { apiKeys, assets, templates, users, workspaceFiles, workspaceFolders, type WorkspaceFileRow, type WorkspaceFolderRow } from "../db/schema";

/**
 * Serializes the structural changes of one workspace's folders and files (create, rename, move,
 * delete; a template placed in a folder) until the transaction ends. why: "names are unique in a
 * folder across files and folders", "a folder holding anything cannot be deleted" and "at most 20
 * levels" are rules over several rows and two tables; the unique indexes back up the first.
 */
export async function lockWorkspaceFiles(ex: Executor, workspaceId: string) {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`workspace-files:${workspaceId}`}, 0))`);
}

/** A position in a list ordered by name ignoring case: the last name (lower-cased) and id seen. */

/** `coalesce(parent, '') = …`: the form the unique name indexes are built on, so lists use them. */
const inParent = (col: PgColumn, parentId: string | null) => sql`coalesce(${col}, '') = ${parentId ?? ""}`;
const afterName = (name: PgColumn, id: PgColumn, c: NameCursor | undefined): SQL | undefined =>
  c ? sql`(lower(${name}), ${id}) > (${c.key}, ${c.id})` : undefined;

export async function findFolder(ex: Executor, workspaceId: string, id: string): Promise<WorkspaceFolderRow | undefined> {
  const [f] = await ex
    .select()
    .from(workspaceFolders)
    .where(and(eq(workspaceFolders.workspaceId, workspaceId), eq(workspaceFolders.id, id)));
  return f;
}

export function listFolders(ex: Executor, workspaceId: string, parentId: string | null, limit: number, after?: NameCursor) {
  return ex
    .select()
    .from(workspaceFolders)
    .where(and(eq(workspaceFolders.workspaceId, workspaceId), inParent(workspaceFolders.parentId, parentId), afterName(workspaceFolders.name, workspaceFolders.id, after)))
    .orderBy(sql`lower(${workspaceFolders.name})`, workspaceFolders.id)
    .limit(limit + 1);
}

/** What already has this name in the folder (ignoring case): a folder or a file, other than `exceptId`. */
export async function nameHolder(ex: Executor, workspaceId: string, parentId: string | null, name: string, exceptId?: string) {
  const [folder] = await ex
    .select({ id: workspaceFolders.id, name: workspaceFolders.name })
    .from(workspaceFolders)
    .where(
      and(
        eq(workspaceFolders.workspaceId, workspaceId),
        inParent(workspaceFolders.parentId, parentId),
        sql`lower(${workspaceFolders.name}) = lower(${name})`,
        exceptId ? ne(workspaceFolders.id, exceptId) : undefined,
      ),
    );
  if (folder) return { type: "folder" as const, ...folder };
  const [file] = await ex
    .select({ id: workspaceFiles.id, name: workspaceFiles.name })
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.workspaceId, workspaceId),
        inParent(workspaceFiles.folderId, parentId),
        sql`lower(${workspaceFiles.name}) = lower(${name})`,
        exceptId ? ne(workspaceFiles.id, exceptId) : undefined,
      ),
    );
  return file ? { type: "file" as const, ...file } : undefined;
}

export async function insertFolder(ex: Executor, row: typeof workspaceFolders.$inferInsert): Promise<WorkspaceFolderRow> {
  const [f] = await ex.insert(workspaceFolders).values(row).returning();
  return f!;
}

export async function updateFolder(ex: Executor, workspaceId: string, id: string, set: { name?: string; parentId?: string | null }) {
  const [f] = await ex
    .update(workspaceFolders)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(workspaceFolders.workspaceId, workspaceId), eq(workspaceFolders.id, id)))
    .returning();
  return f;
}

export async function deleteFolder(ex: Executor, workspaceId: string, id: string) {
  const gone = await ex
    .delete(workspaceFolders)
    .where(and(eq(workspaceFolders.workspaceId, workspaceId), eq(workspaceFolders.id, id)))
    .returning({ id: workspaceFolders.id });
  return gone.length > 0;
}

/** What a folder holds, up to `limit` of each kind and how many in all: folders, files and templates. */
export async function folderContents(ex: Executor, workspaceId: string, folderId: string, limit: number) {
  const count = sql<number>`count(*) over ()`.mapWith(Number);
  const [folders, files, tpls] = await Promise.all([
    ex
      .select({ id: workspaceFolders.id, name: workspaceFolders.name, total: count })
      .from(workspaceFolders)
      .where(and(eq(workspaceFolders.workspaceId, workspaceId), eq(workspaceFolders.parentId, folderId)))
      .orderBy(sql`lower(${workspaceFolders.name})`)
      .limit(limit),
    ex
      .select({ id: workspaceFiles.id, name: workspaceFiles.name, total: count })
      .from(workspaceFiles)
      .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.folderId, folderId)))
      .orderBy(sql`lower(${workspaceFiles.name})`)
      .limit(limit),
    ex
      .select({ id: templates.id, name: templates.name, total: count })
      .from(templates)
      .where(and(eq(templates.workspaceId, workspaceId), eq(templates.folderId, folderId)))
      .orderBy(templates.name)
      .limit(limit),
  ]);
  return { folders, files, templates: tpls };
}

export async function findFile(ex: Executor, workspaceId: string, id: string): Promise<WorkspaceFileRow | undefined> {
  const [f] = await ex
    .select()
    .from(workspaceFiles)
    .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.id, id)));
  return f;
}

/** The columns of a file without its content (lists never carry content). */
const fileColumns = {
  id: workspaceFiles.id,
  workspaceId: workspaceFiles.workspaceId,
  folderId: workspaceFiles.folderId,
  name: workspaceFiles.name,
  kind: workspaceFiles.kind,
  assetId: workspaceFiles.assetId,
  mediaType: workspaceFiles.mediaType,
  size: workspaceFiles.size,
  revision: workspaceFiles.revision,
  updatedByType: workspaceFiles.updatedByType,
  updatedById: workspaceFiles.updatedById,
  createdAt: workspaceFiles.createdAt,
  updatedAt: workspaceFiles.updatedAt,
};
export type FileListRow = Omit<WorkspaceFileRow, "content">;

export function listFiles(
  ex: Executor,
  workspaceId: string,
  folderId: string | null,
  limit: number,
  filter: { kind?: "text" | "asset"; mediaType?: string },
  after?: NameCursor,
): Promise<FileListRow[]> {
  return ex
    .select(fileColumns)
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.workspaceId, workspaceId),
        inParent(workspaceFiles.folderId, folderId),
        filter.kind ? eq(workspaceFiles.kind, filter.kind) : undefined,
        filter.mediaType ? eq(workspaceFiles.mediaType, filter.mediaType) : undefined,
        afterName(workspaceFiles.name, workspaceFiles.id, after),
      ),
    )
    .orderBy(sql`lower(${workspaceFiles.name})`, workspaceFiles.id)
    .limit(limit + 1);
}

export async function insertFile(ex: Executor, row: typeof workspaceFiles.$inferInsert): Promise<WorkspaceFileRow> {
  const [f] = await ex.insert(workspaceFiles).values(row).returning();
  return f!;
}

type FileChange = Partial<Pick<WorkspaceFileRow, "name" | "folderId" | "mediaType" | "assetId" | "size" | "updatedByType" | "updatedById">> & { bumpRevision?: boolean };

export async function updateFile(ex: Executor, workspaceId: string, id: string, change: FileChange) {
  const { bumpRevision, ...set } = change;
  const [f] = await ex
    .update(workspaceFiles)
    .set({ ...set, ...(bumpRevision ? { revision: sql`${workspaceFiles.revision} + 1` } : {}), updatedAt: sql`now()` })
    .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.id, id)))
    .returning();
  return f;
}

/**
 * Saves a text file's content only if its revision is still `expected`: one conditional
 * statement, so of two saves on the same revision exactly one matches the row.
 */
export async function saveContent(
  ex: Executor,
  workspaceId: string,
  id: string,
  expected: number,
  set: { content: string; size: number; updatedByType: WorkspaceFileRow["updatedByType"]; updatedById: string },
) {
  const [f] = await ex
    .update(workspaceFiles)
    .set({ ...set, revision: sql`${workspaceFiles.revision} + 1`, updatedAt: sql`now()` })
    .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.id, id), eq(workspaceFiles.kind, "text"), eq(workspaceFiles.revision, expected)))
    .returning();
  return f;
}

export async function deleteFile(ex: Executor, workspaceId: string, id: string) {
  const gone = await ex
    .delete(workspaceFiles)
    .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.id, id)))
    .returning({ id: workspaceFiles.id });
  return gone.length > 0;
}

/**
 * The workspace's asset, with its state (an asset of another workspace is not found), share-locked
 * until the transaction ends so that it cannot be deleted while a file is made to point at it.
 */
export async function findAssetForFile(ex: Executor, workspaceId: string, id: string) {
  const [a] = await ex
    .select({ id: assets.id, state: assets.state, mediaType: assets.mediaType, size: assets.size, filename: assets.filename })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)))
    .for("share");
  return a;
}

/** Ready assets of the workspace, newest first. */
export function readyAssets(ex: Executor, workspaceId: string, limit: number) {
  return ex
    .select({ id: assets.id, filename: assets.filename, kind: assets.kind, mediaType: assets.mediaType, size: assets.size })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), eq(assets.state, "ready")))
    .orderBy(desc(assets.createdAt), desc(assets.id))
    .limit(limit);
}

/** Templates whose draft names stylesheets: id, name, folder and the paths as written. */
export function templatesWithStylesheets(ex: Executor, workspaceId: string) {
  const sheets = sql`${templates.draft}::jsonb -> 'composition' -> 'stylesheets'`;
  return ex
    .select({ id: templates.id, name: templates.name, folderId: templates.folderId, stylesheets: sql<unknown>`${sheets}` })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), sql`jsonb_typeof(${sheets}) = 'array'`, sql`jsonb_array_length(${sheets}) > 0`));
}

/**
 * Text stylesheets whose content mentions `name` (ignoring case and CSS escapes; as written or
 * percent-encoded): the only ones
 * whose url() or @import can name a file of that name, read whole to be scanned.
 */
export function stylesheetsMentioning(ex: Executor, workspaceId: string, name: string, exceptId: string) {
  const text = sql`lower(replace(${workspaceFiles.content}, '\\', ''))`;
  const encoded = encodeURIComponent(name);
  return ex
    .select({ id: workspaceFiles.id, name: workspaceFiles.name, folderId: workspaceFiles.folderId, content: workspaceFiles.content })
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.workspaceId, workspaceId),
        eq(workspaceFiles.kind, "text"),
        eq(workspaceFiles.mediaType, "text/css"),
        ne(workspaceFiles.id, exceptId),
        encoded === name ? sql`strpos(${text}, lower(${name})) > 0` : sql`(strpos(${text}, lower(${name})) > 0 or strpos(${text}, lower(${encoded})) > 0)`,
      ),
    );
}

/** Names of people and keys who saved files, for a conflict's "saved by". */
export async function editorNames(ex: Executor, workspaceId: string, who: { type: string; id: string }) {
  if (who.type === "user") {
    const [u] = await ex.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, who.id));
    return u ? { name: u.name ?? undefined, email: u.email } : {};
  }
  if (who.type === "apiKey") {
    const [k] = await ex
      .select({ name: apiKeys.name })
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, who.id)));
    return k ? { name: k.name } : {};
  }
  return {};
}

/** Every folder of a workspace, as the nodes of its tree (lib/workspace-files/lookup.ts). */
export function folderNodes(ex: Executor, workspaceId: string) {
  return ex
    .select({ id: workspaceFolders.id, parentId: workspaceFolders.parentId, name: workspaceFolders.name })
    .from(workspaceFolders)
    .where(eq(workspaceFolders.workspaceId, workspaceId));
}

/** The files in these folders (IDs) and, with `withRoot`, at the root; both at once reads the whole workspace, the caller filters. */
export function filesInFolders(ex: Executor, workspaceId: string, named: string[], withRoot: boolean): Promise<WorkspaceFileRow[]> {
  return ex
    .select()
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.workspaceId, workspaceId),
        named.length && withRoot
          ? undefined // both the root and named folders: the caller filters in memory
          : named.length
            ? inArray(workspaceFiles.folderId, named)
            : isNull(workspaceFiles.folderId),
      ),
    );
}
