import { and, asc, eq, gt, ilike, or, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { likeContains } from "../db/like";
import { workspaces, type WorkspaceRow } from "../db/schema";

const BOOTSTRAP_LOCK = 7_046_312;

/** The first start's lock (lib/workspaces/bootstrap.ts), held to the end of the transaction. */
export async function lockBootstrap(ex: Executor) {
  await ex.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
}

export async function insertWorkspace(ex: Executor, row: typeof workspaces.$inferInsert) {
  const [w] = await ex.insert(workspaces).values(row).returning();
  return w!;
}

export function listWorkspaces(ex: Executor): Promise<WorkspaceRow[]> {
  return ex.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id));
}

export async function findWorkspace(ex: Executor, id: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(workspaces).where(eq(workspaces.id, id));
  const [w] = await (opts.forUpdate ? q.for("update") : q);
  return w;
}

export async function updateWorkspace(ex: Executor, id: string, set: Partial<typeof workspaces.$inferInsert>) {
  const [w] = await ex.update(workspaces).set({ ...set, updatedAt: new Date() }).where(eq(workspaces.id, id)).returning();
  return w!;
}

/**
 * What the render limits record counts now (spec: Render limits record), in one statement:
 * documents this UTC month (non-test renders queued, processing or succeeded, plus the succeeded
 * ones retention deleted, as admission counts them: drizzle/0016_retired_documents.sql) and test
 * renders created this UTC day. XLSX outputs count as documents too (drizzle/0025_xlsx_documents.sql).
 */
export async function renderCounts(ex: Executor, workspaceId: string): Promise<{ documentsThisMonth: number; testRendersToday: number }> {
  const [r] = await ex.execute<{ documents: string | number; tests: string | number }>(sql`
    select
      (select count(*) from renders where workspace_id = ${workspaceId} and not test and state in ('queued', 'processing', 'succeeded')
        and created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')
      + coalesce((select documents from retired_documents where workspace_id = ${workspaceId}
        and month = date_trunc('month', now() at time zone 'UTC')::date), 0)
      + coalesce((select documents from xlsx_documents where workspace_id = ${workspaceId}
        and month = date_trunc('month', now() at time zone 'UTC')::date), 0) as documents,
      (select count(*) from renders where workspace_id = ${workspaceId} and test and source <> 'editorPreview'
        and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') as tests`);
  return { documentsThisMonth: Number(r!.documents), testRendersToday: Number(r!.tests) };
}

/** How many renders are active now and were created in the last 60 seconds (non-test), for the console's meters. */
export async function activeCounts(ex: Executor, workspaceId: string): Promise<{ active: number; lastMinute: number }> {
  const [r] = await ex.execute<{ active: string | number; minute: string | number }>(sql`
    select
      (select count(*) from renders where workspace_id = ${workspaceId} and not test and state in ('queued', 'processing')) as active,
      (select count(*) from renders where workspace_id = ${workspaceId} and not test and created_at > now() - interval '60 seconds') as minute`);
  return { active: Number(r!.active), lastMinute: Number(r!.minute) };
}

/** A page of workspaces ordered by id, after `afterId`. */
/** `search`: keeps the workspace whose id it is and those whose name contains it, ignoring letter case. */
export function pageWorkspaces(ex: Executor, limit: number, afterId?: string, search?: string): Promise<WorkspaceRow[]> {
  return ex
    .select()
    .from(workspaces)
    .where(
      and(
        afterId === undefined ? undefined : gt(workspaces.id, afterId),
        search === undefined ? undefined : or(eq(workspaces.id, search), ilike(workspaces.name, likeContains(search))),
      ),
    )
    .orderBy(asc(workspaces.id))
    .limit(limit + 1);
}
