import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../db/client";
import { olderThan } from "../db/paging";
import { renders, usageDays, type RenderErrorRecord, type RenderRow } from "../db/schema";
import type { Cursor } from "../paging";

/** NOTIFY channel carrying the ended notice (see notifyEnded) of every render that reached a final state. */
export const RENDER_ENDED_CHANNEL = "folio_render_ended";
/** NOTIFY channel that wakes the workers' render loops when a render is queued. */
export const RENDER_QUEUED_CHANNEL = "folio_render_queued";
/** NOTIFY channel carrying the id of a render ended by someone other than its worker (cancelled, or taken back): its work should stop. */
export const RENDER_STOP_CHANNEL = "folio_render_stop";

/** What changes when a render ends, as the render-ended notification carries it. */
type EndedFields = Pick<RenderRow, "state" | "error" | "pageCount" | "outputBytes" | "durationMs" | "fileKey" | "startedAt" | "finishedAt" | "updatedAt">;
/** A render-ended notification: the id, and the ended fields unless they did not fit into one notification. */
export type EndedNotice = { id: string; fields?: EndedFields };

/**
 * NOTIFY of the ended notice for every row of `rows` (renders rows). The notice carries the ended
 * fields, so a waiting request answers without reading the render again; NOTIFY payloads are
 * limited to 8000 bytes, and a notice that would not fit (a long error message) carries the id only.
 */
function notifyEnded(rows: SQL) {
  return sql`select pg_notify(${RENDER_ENDED_CHANNEL}, case when octet_length(n) < 7900 then n else json_build_object('id', id)::text end)
    from (select id, json_build_object('id', id, 'state', state, 'error', error, 'pageCount', page_count, 'outputBytes', output_bytes,
      'durationMs', duration_ms, 'fileKey', file_key, 'startedAt', started_at, 'finishedAt', finished_at, 'updatedAt', updated_at)::text as n
      from ${rows}) notices`;
}

/** The notice in a render-ended payload; a bare id (what a process of an older version sends) is a notice without fields. */
export function parseEndedNotice(payload: string): EndedNotice {
  if (!payload.startsWith("{")) return { id: payload };
  const n = JSON.parse(payload) as Record<string, unknown> & { id: string };
  if (n.state === undefined) return { id: n.id };
  const date = (v: unknown) => (v === null ? null : new Date(v as string));
  return {
    id: n.id,
    fields: {
      state: n.state as RenderRow["state"],
      error: n.error as RenderErrorRecord | null,
      pageCount: n.pageCount as number | null,
      outputBytes: n.outputBytes as number | null,
      durationMs: n.durationMs as number | null,
      fileKey: n.fileKey as string | null,
      startedAt: date(n.startedAt),
      finishedAt: date(n.finishedAt),
      updatedAt: date(n.updatedAt)!,
    },
  };
}

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

/** Claims the oldest queued render for one attempt (SKIP LOCKED: concurrent workers never take the same render). */
const claimOldest = (leaseMs: number) => sql`
  update renders set state = 'processing', attempts = attempts + 1, started_at = coalesce(started_at, now()),
    lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval, updated_at = now()
  where id = (select id from renders where state = 'queued' order by created_at, id limit 1 for update skip locked)
  returning *`;

/** A claimed render and its input, from the raw row of `claimed` (the statements below select it). */
function claimedRender(r: Record<string, unknown>) {
  const date = (v: unknown) => (v === null ? null : new Date(v as string));
  const row: RenderRow = {
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    state: r.state as RenderRow["state"],
    test: r.test as boolean,
    source: r.source as string,
    format: r.format as RenderRow["format"],
    options: r.options as RenderRow["options"],
    templateId: r.template_id as string | null,
    templateVersionId: r.template_version_id as string | null,
    attempts: r.attempts as number,
    leaseExpiresAt: date(r.lease_expires_at),
    error: r.error as RenderErrorRecord | null,
    pageCount: r.page_count as number | null,
    outputBytes: r.output_bytes === null ? null : Number(r.output_bytes),
    durationMs: r.duration_ms as number | null,
    fileKey: r.file_key as string | null,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
  };
  return { ...row, payload: r.payload as Record<string, unknown> | null };
}

/**
 * Takes the oldest queued render for one attempt and returns it with its input, in one statement;
 * undefined when none is queued.
 */
export async function claimNextRender(ex: Executor, leaseMs: number): Promise<ClaimedRender | undefined> {
  const [r] = await ex.execute<Record<string, unknown>>(sql`
    with claimed as (${claimOldest(leaseMs)})
    select claimed.*, i.payload from claimed left join render_inputs i on i.render_id = claimed.id`);
  return r ? claimedRender(r) : undefined;
}

export type ClaimedRender = RenderRow & { payload: Record<string, unknown> | null };

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
  return { ended: Number(r!.ended) === 1, next: r!.id ? claimedRender(r!) : undefined };
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
