import { and, desc, eq, getTableColumns, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { olderThan } from "../db/paging";
import { renderInputs, renders, usageDays, type RenderErrorRecord, type RenderRow } from "../db/schema";
import type { Cursor } from "../paging";

/** NOTIFY channel carrying the id of every render that reached a final state. */
export const RENDER_ENDED_CHANNEL = "folio_render_ended";
/** NOTIFY channel that wakes the workers' render loops when a render is queued. */
export const RENDER_QUEUED_CHANNEL = "folio_render_queued";

const ACTIVE = ["queued", "processing"] as const;

type NewRender = Pick<RenderRow, "id" | "workspaceId" | "test" | "source" | "format" | "options"> &
  Partial<Pick<RenderRow, "templateId" | "templateVersionId">>;

/**
 * Queues a render: its row, its input and the workers' wake-up in one statement, so the hot path
 * needs no transaction of its own (inside the caller's transaction when it has one).
 */
export async function insertRender(ex: Executor, row: NewRender, payload: Record<string, unknown>): Promise<RenderRow> {
  const [r] = await ex.execute<{ created_at: string | Date; updated_at: string | Date }>(sql`
    with r as (
      insert into renders (id, workspace_id, test, source, format, options, template_id, template_version_id)
      values (${row.id}, ${row.workspaceId}, ${row.test}, ${row.source}, ${row.format}, ${JSON.stringify(row.options)}::jsonb,
              ${row.templateId ?? null}, ${row.templateVersionId ?? null})
      returning created_at, updated_at
    ), i as (
      insert into render_inputs (render_id, payload) select ${row.id}, ${JSON.stringify(payload)}::jsonb from r
    ), n as (
      select pg_notify(${RENDER_QUEUED_CHANNEL}, '') from r
    )
    select created_at, updated_at, (select count(*) from n) as notified from r`);
  return {
    ...row,
    templateId: row.templateId ?? null,
    templateVersionId: row.templateVersionId ?? null,
    state: "queued",
    attempts: 0,
    leaseExpiresAt: null,
    error: null,
    pageCount: null,
    outputBytes: null,
    durationMs: null,
    fileKey: null,
    createdAt: new Date(r!.created_at),
    updatedAt: new Date(r!.updated_at),
    startedAt: null,
    finishedAt: null,
  };
}

export async function findRender(ex: Executor, workspaceId: string, id: string): Promise<RenderRow | undefined> {
  const [r] = await ex.select().from(renders).where(and(eq(renders.workspaceId, workspaceId), eq(renders.id, id)));
  return r;
}

export function listRenders(ex: Executor, workspaceId: string, limit: number, cursor?: Cursor) {
  return ex
    .select()
    .from(renders)
    .where(and(eq(renders.workspaceId, workspaceId), olderThan(renders.createdAt, renders.id, cursor)))
    .orderBy(desc(renders.createdAt), desc(renders.id))
    .limit(limit + 1);
}

/** Tells the workers a render is waiting; delivered when the caller's transaction commits. */
export async function notifyQueued(ex: Executor) {
  await ex.execute(sql`select pg_notify(${RENDER_QUEUED_CHANNEL}, '')`);
}

/**
 * Takes the oldest queued render for one attempt and returns it with its input, in one statement
 * (SKIP LOCKED: concurrent workers never take the same render); undefined when none is queued.
 */
export async function claimNextRender(ex: Executor, leaseMs: number) {
  const [r] = await ex
    .update(renders)
    .set({
      state: "processing",
      attempts: sql`${renders.attempts} + 1`,
      startedAt: sql`coalesce(${renders.startedAt}, now())`,
      leaseExpiresAt: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      updatedAt: sql`now()`,
    })
    .where(
      sql`${renders.id} = (select id from renders where state = 'queued' order by created_at, id limit 1 for update skip locked)`,
    )
    .returning({
      ...getTableColumns(renders),
      payload: sql<Record<string, unknown> | null>`(select ${renderInputs.payload} from ${renderInputs} where ${renderInputs.renderId} = ${renders.id})`,
    });
  return r;
}

export type ClaimedRender = NonNullable<Awaited<ReturnType<typeof claimNextRender>>>;

/**
 * The worker's end of its own attempt, as one statement (no transaction round trips on the hot
 * path): the conditional state change, the usage row of the UTC day and the NOTIFY all happen only
 * if this attempt still holds the render. Returns whether it did.
 */
export async function endAttempt(ex: Executor, id: string, attempt: number, final: Exclude<Final, { state: "cancelled" }>): Promise<boolean> {
  const ok = final.state === "succeeded";
  const rows = await ex.execute(sql`
    with ended as (
      update renders set
        state = ${final.state},
        page_count = ${ok ? final.pageCount : null},
        output_bytes = ${ok ? final.outputBytes : null},
        duration_ms = ${ok ? final.durationMs : null},
        file_key = ${ok ? final.fileKey : null},
        error = ${ok ? null : JSON.stringify(final.error)}::jsonb,
        lease_expires_at = null, finished_at = now(), updated_at = now()
      where id = ${id} and attempts = ${attempt} and state = 'processing'
      returning id, workspace_id, finished_at
    ), counted as (
      insert into usage_days (workspace_id, day, renders_succeeded, renders_failed, renders_cancelled, pages, output_bytes)
      select workspace_id, (finished_at at time zone 'UTC')::date, ${ok ? 1 : 0}, ${ok ? 0 : 1}, 0, ${ok ? final.pageCount : 0}, ${ok ? final.outputBytes : 0}
      from ended
      on conflict (workspace_id, day) do update set
        renders_succeeded = usage_days.renders_succeeded + excluded.renders_succeeded,
        renders_failed = usage_days.renders_failed + excluded.renders_failed,
        pages = usage_days.pages + excluded.pages,
        output_bytes = usage_days.output_bytes + excluded.output_bytes
    )
    select pg_notify(${RENDER_ENDED_CHANNEL}, id) from ended`);
  return rows.length === 1;
}

type Final =
  | { state: "succeeded"; pageCount: number; outputBytes: number; durationMs: number; fileKey: string | null }
  | { state: "failed"; error: RenderErrorRecord }
  | { state: "cancelled" };

/**
 * Ends a render: one conditional UPDATE, so a render ends exactly once. `from` names the states it
 * may end from. Returns the ended row, or undefined when it had already ended.
 */
export async function endRender(
  ex: Executor,
  where: { id: string; workspaceId?: string; attempt?: number },
  from: readonly RenderRow["state"][],
  final: Final,
) {
  const [r] = await ex
    .update(renders)
    .set({ ...final, leaseExpiresAt: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(renders.id, where.id),
        where.workspaceId ? eq(renders.workspaceId, where.workspaceId) : undefined,
        // why: only the attempt that holds the render may end it; a stale one that lost its lease may not.
        where.attempt !== undefined ? eq(renders.attempts, where.attempt) : undefined,
        inArray(renders.state, [...from]),
      ),
    )
    .returning();
  if (r) {
    await countUsage(ex, r);
    await ex.execute(sql`select pg_notify(${RENDER_ENDED_CHANNEL}, ${r.id})`);
  }
  return r;
}

export const endActiveRender = (ex: Executor, where: { id: string; workspaceId?: string }, final: Final) => endRender(ex, where, ACTIVE, final);

/** Puts a processing render back in the queue for another attempt and wakes the workers. */
export async function requeueRender(ex: Executor, id: string) {
  const [r] = await ex
    .update(renders)
    .set({ state: "queued", leaseExpiresAt: null, updatedAt: sql`now()` })
    .where(and(eq(renders.id, id), eq(renders.state, "processing")))
    .returning();
  if (r) await notifyQueued(ex);
  return r;
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

/** spec: Usage record: counted once, on the UTC day the render ends. */
async function countUsage(ex: Executor, r: RenderRow) {
  const day = r.finishedAt!.toISOString().slice(0, 10); // ISO strings are UTC: this is the UTC day
  const inc = {
    rendersSucceeded: r.state === "succeeded" ? 1 : 0,
    rendersFailed: r.state === "failed" ? 1 : 0,
    rendersCancelled: r.state === "cancelled" ? 1 : 0,
    pages: r.state === "succeeded" ? (r.pageCount ?? 0) : 0,
    outputBytes: r.state === "succeeded" ? (r.outputBytes ?? 0) : 0,
  };
  await ex
    .insert(usageDays)
    .values({ workspaceId: r.workspaceId, day, ...inc })
    .onConflictDoUpdate({
      target: [usageDays.workspaceId, usageDays.day],
      set: {
        rendersSucceeded: sql`${usageDays.rendersSucceeded} + ${inc.rendersSucceeded}`,
        rendersFailed: sql`${usageDays.rendersFailed} + ${inc.rendersFailed}`,
        rendersCancelled: sql`${usageDays.rendersCancelled} + ${inc.rendersCancelled}`,
        pages: sql`${usageDays.pages} + ${inc.pages}`,
        outputBytes: sql`${usageDays.outputBytes} + ${inc.outputBytes}`,
      },
    });
}

/** Renders created before the cutoff, oldest first, for retention. */
export function oldRenders(ex: Executor, cutoff: Date, limit: number) {
  return ex
    .select({ id: renders.id, fileKey: renders.fileKey })
    .from(renders)
    .where(lt(renders.createdAt, cutoff))
    .orderBy(renders.createdAt)
    .limit(limit);
}

export async function deleteRenders(ex: Executor, ids: string[]) {
  if (ids.length) await ex.delete(renders).where(inArray(renders.id, ids));
}
