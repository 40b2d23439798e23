/**
 * The statements that move a render from state to state. Each is one statement, conditional on the
 * state it leaves, so a render ends exactly once; the hot path's are written as SQL so that a move,
 * its usage count and its notifications cost one round trip (docs/architecture.md, Render pipeline).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { renders, type RenderErrorRecord, type RenderRow } from "../db/schema";
import { notifyEnded, RENDER_QUEUED_CHANNEL, RENDER_STOP_CHANNEL } from "./notices";
import { claimedRenderFrom, type ClaimedRender } from "./row";
import { countUsage } from "./usage";

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

/** Tells the workers a render is waiting; delivered when the caller's transaction commits. */
export async function notifyQueued(ex: Executor) {
  await ex.execute(sql`select pg_notify(${RENDER_QUEUED_CHANNEL}, '')`);
}

/** Claims the oldest queued render for one attempt (SKIP LOCKED: concurrent workers never take the same render). */
const claimOldest = (leaseMs: number) => sql`
  update renders set state = 'processing', attempts = attempts + 1, started_at = coalesce(started_at, now()),
    lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval, updated_at = now()
  where id = (select id from renders where state = 'queued' order by created_at, id limit 1 for update skip locked)
  returning *`;

/**
 * Takes the oldest queued render for one attempt and returns it with its input, in one statement;
 * undefined when none is queued.
 */
export async function claimNextRender(ex: Executor, leaseMs: number): Promise<ClaimedRender | undefined> {
  const [r] = await ex.execute<Record<string, unknown>>(sql`
    with claimed as (${claimOldest(leaseMs)})
    select claimed.*, i.payload from claimed left join render_inputs i on i.render_id = claimed.id`);
  return r ? claimedRenderFrom(r) : undefined;
}

/**
 * The worker's end of its own attempt, as one statement (no transaction round trips on the hot
 * path): the conditional state change, the usage row of the UTC day and the NOTIFY all happen only
 * if this attempt still holds the render. With `claimLeaseMs`, the same statement also claims the
 * next queued render for this worker, saving the round trip of a separate claim. Returns whether
 * the attempt ended the render, and the render claimed next.
 */
export async function endAttempt(
  ex: Executor,
  id: string,
  attempt: number,
  final: Exclude<Final, { state: "cancelled" }>,
  claimLeaseMs?: number,
): Promise<{ ended: boolean; next?: ClaimedRender }> {
  const ok = final.state === "succeeded";
  const [r] = await ex.execute<Record<string, unknown>>(sql`
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
      returning *
    ), counted as (
      insert into usage_days (workspace_id, day, renders_succeeded, renders_failed, renders_cancelled, pages, output_bytes)
      select workspace_id, (finished_at at time zone 'UTC')::date, ${ok ? 1 : 0}, ${ok ? 0 : 1}, 0, ${ok ? final.pageCount : 0}, ${ok ? final.outputBytes : 0}
      from ended
      on conflict (workspace_id, day) do update set
        renders_succeeded = usage_days.renders_succeeded + excluded.renders_succeeded,
        renders_failed = usage_days.renders_failed + excluded.renders_failed,
        pages = usage_days.pages + excluded.pages,
        output_bytes = usage_days.output_bytes + excluded.output_bytes
    ), notified as (${notifyEnded(sql`ended`)}
    ), claimed as (${claimLeaseMs === undefined ? sql`select * from renders where false` : claimOldest(claimLeaseMs)})
    select (select count(*) from notified) as ended, claimed.*, i.payload
    from (select) one left join claimed on true left join render_inputs i on i.render_id = claimed.id`);
  return { ended: Number(r!.ended) === 1, next: r!.id ? claimedRenderFrom(r!) : undefined };
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
    await ex.execute(sql`${notifyEnded(sql`renders where id = ${r.id}`)}`);
    await ex.execute(sql`select pg_notify(${RENDER_STOP_CHANNEL}, ${r.id})`);
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
