import { and, asc, desc, eq, gt, ilike, inArray, isNull, lt, max, sql } from "drizzle-orm";
import type { Executor, Tx } from "../db/client";
import { olderThan } from "../db/paging";
import { apiKeys, assetBlobs, assets, templateRevisions, templates, templateVersionBlobs, templateVersions, users, workspaceFiles, type TemplateRow } from "../db/schema";
import type { Cursor } from "../paging";
import { likeContains } from "../db/like";

export async function insertTemplate(ex: Executor, row: typeof templates.$inferInsert): Promise<TemplateRow> {
  const [t] = await ex.insert(templates).values(row).returning();
  return t!;
}

export async function findTemplate(ex: Executor, workspaceId: string, id: string, lock = false): Promise<TemplateRow | undefined> {
  const q = ex.select().from(templates).where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)));
  const [t] = lock ? await q.for("update") : await q;
  return t;
}

/** `folderId`: undefined for every folder, null for the workspace's root. */
export function listTemplates(ex: Executor, workspaceId: string, limit: number, cursor?: Cursor, nameContains?: string, folderId?: string | null) {
  return ex
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.workspaceId, workspaceId),
        nameContains === undefined ? undefined : ilike(templates.name, likeContains(nameContains)),
        folderId === undefined ? undefined : folderId === null ? isNull(templates.folderId) : eq(templates.folderId, folderId),
        olderThan(templates.createdAt, templates.id, cursor),
      ),
    )
    .orderBy(desc(templates.createdAt), desc(templates.id))
    .limit(limit + 1);
}

export async function updateTemplate(ex: Executor, workspaceId: string, id: string, set: Partial<Pick<TemplateRow, "name" | "description" | "folderId">>) {
  const [t] = await ex
    .update(templates)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
    .returning();
  return t;
}

/**
 * Saves a draft only if its revision is still `expected`: one conditional statement, so of two
 * concurrent saves with the same revision exactly one matches the row.
 */
export async function saveDraft(ex: Executor, workspaceId: string, id: string, expected: number, draft: Record<string, unknown>) {
  const [t] = await ex
    .update(templates)
    .set({ draft, draftRevision: sql`${templates.draftRevision} + 1`, updatedAt: sql`now()` })
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id), eq(templates.draftRevision, expected)))
    .returning();
  return t;
}

export async function deleteTemplates(ex: Executor, workspaceId: string, ids: string[]) {
  return ex
    .delete(templates)
    .where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, ids)))
    .returning({ id: templates.id, name: templates.name });
}

export async function insertRevision(ex: Executor, row: typeof templateRevisions.$inferInsert) {
  await ex.insert(templateRevisions).values(row);
}

export function listRevisions(ex: Executor, templateId: string, limit: number, order: "asc" | "desc", after?: number) {
  const col = templateRevisions.revision;
  return ex
    .select()
    .from(templateRevisions)
    .where(and(eq(templateRevisions.templateId, templateId), after === undefined ? undefined : order === "asc" ? gt(col, after) : lt(col, after)))
    .orderBy(order === "asc" ? asc(col) : desc(col))
    .limit(limit + 1);
}

export async function nextVersion(ex: Executor, templateId: string): Promise<number> {
  const [r] = await ex.select({ v: max(templateVersions.version) }).from(templateVersions).where(eq(templateVersions.templateId, templateId));
  return (r?.v ?? 0) + 1;
}

/** A template's newest version's content (publishing compares the draft with it), undefined before the first. */
export async function newestVersionContent(ex: Executor, templateId: string): Promise<Record<string, unknown> | undefined> {
  const [v] = await ex
    .select({ content: templateVersions.content })
    .from(templateVersions)
    .where(eq(templateVersions.templateId, templateId))
    .orderBy(desc(templateVersions.version))
    .limit(1);
  return v?.content;
}

export async function insertVersion(ex: Executor, row: typeof templateVersions.$inferInsert) {
  const [v] = await ex.insert(templateVersions).values(row).returning();
  return v!;
}

export function listVersions(ex: Executor, templateId: string, limit: number, order: "asc" | "desc", after?: number) {
  const col = templateVersions.version;
  return ex
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.templateId, templateId), after === undefined ? undefined : order === "asc" ? gt(col, after) : lt(col, after)))
    .orderBy(order === "asc" ? asc(col) : desc(col))
    .limit(limit + 1);
}

export async function findVersion(ex: Executor, workspaceId: string, id: string) {
  const [v] = await ex
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.workspaceId, workspaceId), eq(templateVersions.id, id)));
  return v;
}

/** The newest published version among the workspace's templates of that name (Reports API). */
export async function newestVersionByName(ex: Executor, workspaceId: string, name: string) {
  const [v] = await ex
    .select({ version: templateVersions })
    .from(templateVersions)
    .innerJoin(templates, eq(templates.id, templateVersions.templateId))
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.name, name)))
    .orderBy(desc(templateVersions.createdAt), desc(templateVersions.id))
    .limit(1);
  return v?.version;
}

/**
 * For each template name of the workspace, the version the Reports API renders by that name: the
 * newest published one among the templates of that name (as newestVersionByName picks it), with its
 * template and data schema (`content->'dataSchema'`, not the whole content). By name.
 */
export function newestVersionPerName(ex: Executor, workspaceId: string) {
  return ex
    .selectDistinctOn([templates.name], {
      name: templates.name,
      templateId: templates.id,
      description: templates.description,
      kind: templates.kind,
      versionId: templateVersions.id,
      version: templateVersions.version,
      publishedAt: templateVersions.createdAt,
      dataSchema: sql<unknown>`${templateVersions.content}->'dataSchema'`,
    })
    .from(templateVersions)
    .innerJoin(templates, eq(templates.id, templateVersions.templateId))
    .where(eq(templates.workspaceId, workspaceId))
    .orderBy(templates.name, desc(templateVersions.createdAt), desc(templateVersions.id));
}

/** The names of the workspace's templates among `ids` (deleted ones are simply absent). */
export function findTemplateNames(ex: Executor, workspaceId: string, ids: string[]) {
  return ex
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, ids)));
}

/** Template rows written as they are, many in one statement: for seeding (the console bench). */
export async function insertTemplateRows(ex: Executor, rows: (typeof templates.$inferInsert)[]) {
  if (rows.length) await ex.insert(templates).values(rows);
}

/** Who saved a template's current draft revision and when, and its newest published version number. */
export type EditRecord = {
  templateId: string;
  editedAt: Date;
  actorType: "user" | "apiKey" | "system";
  actorId: string;
  userName: string | null;
  userEmail: string | null;
  keyName: string | null;
  publishedVersion: number | null;
};

/**
 * The edit records of templates of one workspace, in one statement: the revision row of each
 * current draft (unique on template and revision), the person or key it names, and the highest
 * version (unique on template and version, so max reads one index entry).
 */
export async function editRecords(ex: Executor, workspaceId: string, templateIds: string[]): Promise<EditRecord[]> {
  if (templateIds.length === 0) return [];
  return ex
    .select({
      templateId: templateRevisions.templateId,
      editedAt: templateRevisions.createdAt,
      actorType: templateRevisions.actorType,
      actorId: templateRevisions.actorId,
      userName: users.name,
      userEmail: users.email,
      keyName: apiKeys.name,
      publishedVersion: sql<number | null>`(select max(${templateVersions.version}) from ${templateVersions} where ${templateVersions.templateId} = ${templates.id})`.mapWith(
        (v: unknown) => (v === null ? null : Number(v)),
      ),
    })
    .from(templates)
    .innerJoin(templateRevisions, and(eq(templateRevisions.templateId, templates.id), eq(templateRevisions.revision, templates.draftRevision)))
    .leftJoin(users, and(eq(templateRevisions.actorType, "user"), eq(users.id, templateRevisions.actorId)))
    .leftJoin(apiKeys, and(eq(templateRevisions.actorType, "apiKey"), eq(apiKeys.id, templateRevisions.actorId), eq(apiKeys.workspaceId, workspaceId)))
    .where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, templateIds)));
}

/**
 * The workspace's assets among `ids`, with what rendering needs (kind, state, blob). Absent when
 * unknown or of another workspace.
 */
export function findAssets(ex: Executor, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex
    .select({ id: assets.id, kind: assets.kind, mediaType: assets.mediaType, size: assets.size, sha256: assets.sha256, state: assets.state })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), inArray(assets.id, ids)));
}

/**
 * Locks the blobs a version is about to copy (FOR SHARE, in the publishing transaction), so an
 * asset deleted meanwhile cannot release them before the version's rows point at them. Returns
 * the sha256 of those still stored.
 */
export async function lockBlobs(tx: Tx, workspaceId: string, shas: string[]): Promise<Set<string>> {
  if (shas.length === 0) return new Set();
  const rows = await tx
    .select({ sha256: assetBlobs.sha256 })
    .from(assetBlobs)
    .where(and(eq(assetBlobs.workspaceId, workspaceId), inArray(assetBlobs.sha256, shas)))
    .for("share");
  return new Set(rows.map((r) => r.sha256));
}

/** The blobs a published version copied (spec Versioning 5). */
export async function insertVersionBlobs(tx: Tx, versionId: string, workspaceId: string, shas: string[]) {
  if (shas.length) await tx.insert(templateVersionBlobs).values(shas.map((sha256) => ({ versionId, workspaceId, sha256 })));
}

/** The blobs the versions of these templates copied: what deleting the templates may release. */
export async function versionBlobsOfTemplates(ex: Executor, workspaceId: string, templateIds: string[]): Promise<string[]> {
  if (templateIds.length === 0) return [];
  const rows = await ex
    .selectDistinct({ sha256: templateVersionBlobs.sha256 })
    .from(templateVersionBlobs)
    .innerJoin(templateVersions, eq(templateVersions.id, templateVersionBlobs.versionId))
    .where(and(eq(templateVersionBlobs.workspaceId, workspaceId), inArray(templateVersions.templateId, templateIds)));
  return rows.map((r) => r.sha256);
}

/** The workspace's text/css workspace files (at most `limit`), for the editor's list of stylesheets. */
export function stylesheetFiles(ex: Executor, workspaceId: string, limit: number) {
  return ex
    .select({ id: workspaceFiles.id, folderId: workspaceFiles.folderId, name: workspaceFiles.name })
    .from(workspaceFiles)
    .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.mediaType, "text/css")))
    .orderBy(asc(workspaceFiles.name))
    .limit(limit);
}

/** The workspace's ready images (kinds image and svg), newest first, for the editor's image picker. */
/** The workspace's uploaded workbooks, newest first (the workbook template's picker). */
export function readyWorkbooks(ex: Executor, workspaceId: string, limit: number) {
  return ex
    .select({ id: assets.id, filename: assets.filename, size: assets.size, createdAt: assets.createdAt })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), eq(assets.state, "ready"), eq(assets.kind, "workbook")))
    .orderBy(desc(assets.createdAt), desc(assets.id))
    .limit(limit);
}

export function readyImages(ex: Executor, workspaceId: string, limit: number) {
  return ex
    .select({ id: assets.id, kind: assets.kind, filename: assets.filename, mediaType: assets.mediaType, size: assets.size, sha256: assets.sha256, createdAt: assets.createdAt })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), eq(assets.state, "ready"), inArray(assets.kind, ["image", "svg"])))
    .orderBy(desc(assets.createdAt), desc(assets.id))
    .limit(limit);
}
