import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { olderThan } from "../db/paging";
import { assetBlobs, assets, templates, workspaceFiles, workspaces, type AssetKind, type AssetRow } from "../db/schema";
import type { Cursor } from "../paging";

/** Values as a parenthesised SQL list's contents: `x in (${list(values)})`. */
const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

export async function insertAsset(ex: Executor, row: typeof assets.$inferInsert): Promise<AssetRow> {
  const [a] = await ex.insert(assets).values(row).returning();
  return a!;
}

export async function findAsset(ex: Executor, workspaceId: string, id: string, lock = false): Promise<AssetRow | undefined> {
  const q = ex.select().from(assets).where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)));
  const [a] = lock ? await q.for("update") : await q;
  return a;
}

/** Whether the workspace is suspended (an upload link's check; lib/workspaces imports this module, not the reverse). */
export async function isWorkspaceSuspended(ex: Executor, workspaceId: string): Promise<boolean> {
  const [w] = await ex.select({ suspended: workspaces.suspended }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return w?.suspended ?? false;
}

/** The workspace's assets with these ids, in any state (ids of other workspaces are not found). */
export function findAssets(ex: Executor, workspaceId: string, ids: string[]): Promise<AssetRow[]> {
  return ex.select().from(assets).where(and(eq(assets.workspaceId, workspaceId), inArray(assets.id, ids)));
}

export function listAssets(ex: Executor, workspaceId: string, limit: number, cursor: Cursor | undefined, kinds: readonly AssetKind[] | undefined) {
  return ex
    .select()
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), kinds ? inArray(assets.kind, [...kinds]) : undefined, olderThan(assets.createdAt, assets.id, cursor)))
    .orderBy(desc(assets.createdAt), desc(assets.id))
    .limit(limit + 1);
}

/** Marks a pending asset ready; undefined when it is not pending any more (a concurrent upload won). */
export async function markReady(ex: Executor, workspaceId: string, id: string): Promise<AssetRow | undefined> {
  const [a] = await ex
    .update(assets)
    .set({ state: "ready", uploadedAt: sql`now()` })
    .where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id), eq(assets.state, "pending")))
    .returning();
  return a;
}

export async function deleteAsset(ex: Executor, workspaceId: string, id: string) {
  await ex.delete(assets).where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)));
}

/**
 * Serialises the changes of one workspace's stored bytes (registering, finishing an upload,
 * releasing blobs, deleting blob files) for the rest of the transaction. why an advisory lock: a
 * quota check and the write it allows must see each other's effects, and a blob's file must not
 * be deleted while an upload of the same content stores it again.
 */
export async function lockStorage(ex: Executor, workspaceId: string) {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`asset-storage:${workspaceId}`}, 0))`);
}

export async function maxStorageBytes(ex: Executor, workspaceId: string): Promise<number | null> {
  const [w] = await ex.select({ max: workspaces.maxStorageBytes }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return w?.max ?? null;
}

/** Bytes stored for the workspace: each blob once, however many assets and versions use it. */
export async function storedBytes(ex: Executor, workspaceId: string): Promise<number> {
  const [r] = await ex.execute<{ n: string | number | null }>(sql`select coalesce(sum(size), 0) as n from asset_blobs where workspace_id = ${workspaceId}`);
  return Number(r?.n ?? 0);
}

/**
 * Bytes that pending uploads registered since `since` may still add: each content once, and none
 * whose blob is already stored.
 */
export async function reservedBytes(ex: Executor, workspaceId: string, since: Date): Promise<number> {
  const [r] = await ex.execute<{ n: string | number | null }>(sql`
    select coalesce(sum(size), 0) as n from (
      select distinct on (a.sha256) a.size from assets a
      where a.workspace_id = ${workspaceId} and a.state = 'pending' and a.created_at > ${since.toISOString()}::timestamptz
        and not exists (select 1 from asset_blobs b where b.workspace_id = a.workspace_id and b.sha256 = a.sha256)
    ) pending`);
  return Number(r?.n ?? 0);
}

/** Whether a pending asset registered since `since` already reserves this content. */
export async function isReserved(ex: Executor, workspaceId: string, sha256: string, since: Date): Promise<boolean> {
  const [r] = await ex.execute(sql`
    select 1 from assets where workspace_id = ${workspaceId} and sha256 = ${sha256} and state = 'pending'
      and created_at > ${since.toISOString()}::timestamptz limit 1`);
  return r !== undefined;
}

export async function findBlob(ex: Executor, workspaceId: string, sha256: string) {
  const [b] = await ex.select().from(assetBlobs).where(and(eq(assetBlobs.workspaceId, workspaceId), eq(assetBlobs.sha256, sha256)));
  return b;
}

export async function insertBlob(ex: Executor, row: typeof assetBlobs.$inferInsert) {
  await ex.insert(assetBlobs).values(row).onConflictDoNothing();
}

/** Of these blobs, the ones with no row (their files may go). */
export async function missingBlobs(ex: Executor, workspaceId: string, sha256s: string[]): Promise<string[]> {
  const rows = await ex
    .select({ sha256: assetBlobs.sha256 })
    .from(assetBlobs)
    .where(and(eq(assetBlobs.workspaceId, workspaceId), inArray(assetBlobs.sha256, sha256s)));
  const present = new Set(rows.map((r) => r.sha256));
  return sha256s.filter((s) => !present.has(s));
}

/** Deletes the rows of these blobs that no ready asset and no published version uses; returns the deleted ones. */
export async function deleteUnusedBlobs(ex: Executor, workspaceId: string, sha256s: string[]): Promise<string[]> {
  const rows = await ex.execute<{ sha256: string }>(sql`
    delete from asset_blobs b
    where b.workspace_id = ${workspaceId} and b.sha256 in (${list(sha256s)})
      and not exists (select 1 from assets a where a.workspace_id = b.workspace_id and a.sha256 = b.sha256 and a.state = 'ready')
      and not exists (select 1 from template_version_blobs v where v.workspace_id = b.workspace_id and v.sha256 = b.sha256)
    returning b.sha256`);
  return rows.map((r) => r.sha256);
}

/** Workspace files backed by this asset. */
export function filesUsing(ex: Executor, workspaceId: string, assetId: string) {
  return ex
    .select({ id: workspaceFiles.id, name: workspaceFiles.name, folderId: workspaceFiles.folderId })
    .from(workspaceFiles)
    .where(and(eq(workspaceFiles.workspaceId, workspaceId), eq(workspaceFiles.assetId, assetId)))
    .orderBy(workspaceFiles.name)
    .limit(100);
}

/** Templates whose draft names this asset literally (any `assetId` member equal to it, at any depth). */
export function templatesUsing(ex: Executor, workspaceId: string, assetId: string) {
  return ex
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(
      and(
        eq(templates.workspaceId, workspaceId),
        sql`jsonb_path_exists(${templates.draft}::jsonb, '$.** ? (@.assetId == $id)', jsonb_build_object('id', ${assetId}::text))`,
      ),
    )
    .orderBy(templates.name)
    .limit(100);
}

/** How many workspace files and template drafts use each of these assets (the console's usage column). */
export async function useCounts(ex: Executor, workspaceId: string, assetIds: string[]): Promise<Map<string, number>> {
  if (assetIds.length === 0) return new Map();
  const rows = await ex.execute<{ id: string; n: string | number }>(sql`
    select a.id, (
      (select count(*) from workspace_files f where f.workspace_id = a.workspace_id and f.asset_id = a.id) +
      (select count(*) from templates t where t.workspace_id = a.workspace_id
         and jsonb_path_exists(t.draft::jsonb, '$.** ? (@.assetId == $id)', jsonb_build_object('id', a.id)))
    ) as n
    from assets a where a.workspace_id = ${workspaceId} and a.id in (${list(assetIds)})`);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** Pending assets registered before `cutoff` that no workspace file names, at most `limit` (their upload links expired long ago). */
export async function deleteAbandonedUploads(ex: Executor, cutoff: Date, limit: number) {
  return ex.execute<{ id: string; workspace_id: string }>(sql`
    delete from assets where id in (
      select a.id from assets a
      where a.state = 'pending' and a.created_at < ${cutoff.toISOString()}::timestamptz
        and not exists (select 1 from workspace_files f where f.asset_id = a.id)
      order by a.created_at limit ${limit}
      for update skip locked)
    returning id, workspace_id`);
}

