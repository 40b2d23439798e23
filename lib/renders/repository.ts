import { and, desc, eq, exists, inArray, lt, ne, not, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { olderThan } from "../db/paging";
import { batches, renders, workspaces, type RenderRow } from "../db/schema";
import type { Cursor } from "../paging";
import type { RenderFilter } from "./schemas";

const ENDED = ["succeeded", "failed", "cancelled"] as const;

/** Whether the workspace has a monthly document allowance (documentsPerMonth set). */
export async function hasDocumentAllowance(ex: Executor, workspaceId: string): Promise<boolean> {
  const [w] = await ex.select({ documentsPerMonth: workspaces.documentsPerMonth }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return w?.documentsPerMonth != null;
}

export async function findRender(ex: Executor, workspaceId: string, id: string): Promise<RenderRow | undefined> {
  const [r] = await ex.select().from(renders).where(and(eq(renders.workspaceId, workspaceId), eq(renders.id, id)));
  return r;
}

/**
 * A newest-first page of the workspace's renders, optionally of one state and test flag. why no
 * index of its own for the filters: renders_workspace_created_idx walks the workspace's renders
 * newest first and the filter drops rows as it goes; measured in docs/architecture.md.
 */
export function listRenders(ex: Executor, workspaceId: string, limit: number, cursor?: Cursor, filter: RenderFilter = {}) {
  return ex
    .select()
    .from(renders)
    .where(
      and(
        eq(renders.workspaceId, workspaceId),
        filter.state === undefined ? undefined : eq(renders.state, filter.state),
        filter.test === undefined ? undefined : eq(renders.test, filter.test),
        filter.batchId === undefined ? undefined : eq(renders.batchId, filter.batchId),
        // docs/api.md: the console editor's previews are listed only when asked for by source.
        filter.source === undefined ? ne(renders.source, "editorPreview") : eq(renders.source, filter.source),
        olderThan(renders.createdAt, renders.id, cursor),
      ),
    )
    .orderBy(desc(renders.createdAt), desc(renders.id))
    .limit(limit + 1);
}

export async function renewLeases(ex: Executor, ids: string[], leaseMs: number) {
  if (ids.length === 0) return;
  await ex
    .update(renders)
    .set({ leaseExpiresAt: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where(and(inArray(renders.id, ids), eq(renders.state, "processing")));
}

/** Processing renders whose worker stopped renewing the lease, locked for the caller's transaction. */
export function lockExpiredLeases(ex: Executor, limit: number) {
  return ex
    .select()
    .from(renders)
    .where(and(eq(renders.state, "processing"), lt(renders.leaseExpiresAt, sql`now()`)))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/**
 * Deletes up to `limit` ended renders created before the cutoff, oldest first, with their inputs
 * (cascade), and returns what locates their files. Queued and processing renders are never deleted,
 * whatever their age: a worker may hold them.
 */
/**
 * Deletes up to `limit` ended renders created before `cutoff` (oldest first, skipping rows another
 * transaction holds) and returns them. The same statement adds the succeeded non-test ones to
 * retired_documents by workspace and month of creation, so the monthly document count loses
 * nothing (spec: Limits > Monthly documents): a reader sees each render either kept or retired.
 */
export async function deleteExpiredRenders(ex: Executor, cutoff: Date, limit: number) {
  const rows = await ex.execute<{ id: string; workspace_id: string; format: RenderRow["format"]; attempts: number; file_key: string | null }>(sql`
    with expired as (
      select id from renders
      where created_at < ${cutoff.toISOString()}::timestamptz and state in (${sql.join(ENDED.map((s) => sql`${s}`), sql`, `)})
      order by created_at limit ${limit}
      for update skip locked
    ), deleted as (
      delete from renders where id in (select id from expired)
      returning id, workspace_id, format, attempts, file_key, state, test, created_at
    ), retired as (
      insert into retired_documents (workspace_id, month, documents)
      select workspace_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*)
      from deleted where state = 'succeeded' and not test group by 1, 2
      on conflict (workspace_id, month) do update set documents = retired_documents.documents + excluded.documents
    )
    select id, workspace_id, format, attempts, file_key from deleted`);
  return [...rows].map((r) => ({ id: r.id, workspaceId: r.workspace_id, format: r.format, attempts: Number(r.attempts), fileKey: r.file_key }));
}

/**
 * Render rows written as they are, many in one statement, without inputs or notifications: for
 * seeding (the console bench, tests). A queued row is taken by the next worker that looks.
 */
export async function insertRenderRows(ex: Executor, rows: (typeof renders.$inferInsert)[]) {
  if (rows.length) await ex.insert(renders).values(rows);
}

/**
 * Deletes batches created before the cutoff that no longer hold any render (retention deleted
 * their items): the batch row is all that is left of them. Returns how many.
 */
export async function deleteEmptyBatches(ex: Executor, cutoff: Date): Promise<number> {
  const items = ex.select({ one: sql`1` }).from(renders).where(eq(renders.batchId, batches.id));
  const rows = await ex
    .delete(batches)
    .where(and(lt(batches.createdAt, cutoff), not(exists(items))))
    .returning({ id: batches.id });
  return rows.length;
}
