/**
 * The statements that move a render from state to state. Each is one statement, conditional on the
 * state it leaves, so a render ends exactly once; the hot path's are written as SQL so that a move,
 * its usage count and its notifications cost one round trip (docs/architecture.md, Render pipeline).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { renders, type RenderErrorRecord, type RenderRow, type RenderWarningRecord } from "../db/schema";
import { notifyEnded, RENDER_QUEUED_CHANNEL, RENDER_STOP_CHANNEL } from "./notices";
import { claimedRenderFrom, renderRowFrom, type ClaimedRender } from "./row";
import { countUsage } from "./usage";
import { insertDeliveriesFor, notifyDue } from "../webhooks/repository";
import { admissionSql, editorPreviewAdmissionSql, refusalError, type Refusal } from "./admission";

const ACTIVE = ["queued", "processing"] as const;

export type NewRender = Pick<RenderRow, "id" | "workspaceId" | "test" | "source" | "format" | "options"> &
  Partial<Pick<RenderRow, "templateId" | "templateVersionId" | "requestId" | "destinationId" | "destinationName" | "destinationKey" | "keepCopy" | "batchId" | "batchIndex">>;

/**
 * Queues a render: its admission (folio_admit_renders, unless `admitted` says the caller already
 * admitted it, as a batch does for all its items), its row, its input and the workers' wake-up in
 * one statement, so the hot path needs no transaction of its own (inside the caller's transaction
 * when it has one). A refusal inserts nothing and throws (lib/renders/admission.ts).
 */
export async function insertRender(ex: Executor, row: NewRender, payload: Record<string, unknown>, admitted = false): Promise<RenderRow> {
  const admission = admitted
    ? sql`null::jsonb`
    : row.source === "editorPreview" && row.options.editor
      ? editorPreviewAdmissionSql(row.workspaceId, row.options.editor)
      : admissionSql(row.workspaceId, row.test ? { normal: 0, test: 1 } : { normal: 1, test: 0 });
  const [r] = await ex.execute<{ refusal: Refusal | null; created_at: string | Date; updated_at: string | Date; turn: string | number }>(sql`
    with a as (select ${admission} as refusal), r as (
      insert into renders (id, workspace_id, test, source, format, options, template_id, template_version_id, request_id,
                           destination_id, destination_name, destination_key, keep_copy, batch_id, batch_index, turn)
      select ${row.id}, ${row.workspaceId}, ${row.test}::boolean, ${row.source}, ${row.format}, ${JSON.stringify(row.options)}::jsonb,
              ${row.templateId ?? null}, ${row.templateVersionId ?? null}, ${row.requestId ?? null},
              ${row.destinationId ?? null}, ${row.destinationName ?? null}, ${row.destinationKey ?? null}, ${row.keepCopy ?? true}::boolean,
              ${row.batchId ?? null}, ${row.batchIndex ?? null}::int, ${nextTurn(row.workspaceId)}
      from a where a.refusal is null
      returning created_at, updated_at, turn
    ), i as (
      insert into render_inputs (render_id, payload) select ${row.id}, ${JSON.stringify(payload)}::jsonb from r
    ), n as (
      select pg_notify(${RENDER_QUEUED_CHANNEL}, '') from r
    )
    select a.refusal, r.created_at, r.updated_at, r.turn, (select count(*) from n) as notified from a left join r on true`);
  if (r!.refusal) throw refusalError(r!.refusal);
  return {
    ...row,
    templateId: row.templateId ?? null,
    templateVersionId: row.templateVersionId ?? null,
    requestId: row.requestId ?? null,
    state: "queued",
    attempts: 0,
    leaseExpiresAt: null,
    error: null,
    warnings: null,
    destinationId: row.destinationId ?? null,
    destinationName: row.destinationName ?? null,
    destinationKey: row.destinationKey ?? null,
    keepCopy: row.keepCopy ?? true,
    batchId: row.batchId ?? null,
    batchIndex: row.batchIndex ?? null,
    turn: Number(r!.turn),
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

/**
 * The turn of a render the workspace queues now (docs/architecture.md, Fair turns): one after its
 * workspace's last queued render, and never before the lowest turn still waiting, so a workspace
 * that had nothing waiting joins the current round instead of jumping ahead of it or waiting behind
 * another's backlog. Two index probes (renders_workspace_turn_idx, renders_queued_idx), in
 * folio_next_turn (drizzle/0018): why a function, its queries read after admission's lock, where
 * this statement's own subqueries would read its start and miss renders queued at the same moment.
 */
const nextTurn = (workspaceId: string) => sql`folio_next_turn(${workspaceId})`;

/**
 * Queues many renders (a batch's items) in one statement: their rows, their inputs and one wake-up
 * of the workers, inside the caller's transaction. The items take successive turns from the
 * workspace's next one (fair turns: a batch waits its rounds like single renders do), and are
 * admitted by the caller first (admitRenders). Returns each row's created_at and updated_at by id.
 */
export async function insertRenders(ex: Executor, items: { row: NewRender; payload: Record<string, unknown> }[]): Promise<Map<string, Date>> {
  if (items.length === 0) return new Map();
  const values = items.map(
    ({ row }, i) => sql`(${row.id}, ${row.workspaceId}, ${row.test}, ${row.source}, ${row.format}, ${JSON.stringify(row.options)}::jsonb,
      ${row.templateId ?? null}, ${row.templateVersionId ?? null}, ${row.requestId ?? null},
      ${row.destinationId ?? null}, ${row.destinationName ?? null}, ${row.destinationKey ?? null}, ${row.keepCopy ?? true}::boolean,
      ${row.batchId ?? null}, ${row.batchIndex ?? null}::integer, (select base from t) + ${i}::bigint)`,
  );
  const inputs = items.map(({ row, payload }) => sql`(${row.id}, ${JSON.stringify(payload)}::jsonb)`);
  const rows = await ex.execute<{ id: string; created_at: string | Date }>(sql`
    with t as (select ${nextTurn(items[0]!.row.workspaceId)} as base), r as (
      insert into renders (id, workspace_id, test, source, format, options, template_id, template_version_id, request_id,
                           destination_id, destination_name, destination_key, keep_copy, batch_id, batch_index, turn)
      values ${sql.join(values, sql`, `)}
      returning id, created_at
    ), i as (
      insert into render_inputs (render_id, payload) select v.id, v.payload from (values ${sql.join(inputs, sql`, `)}) as v(id, payload)
      where v.id in (select id from r)
    ), n as (
      select pg_notify(${RENDER_QUEUED_CHANNEL}, '') where exists (select 1 from r)
    )
    select id, created_at, (select count(*) from n) as notified from r`);
  return new Map(rows.map((r) => [r.id, new Date(r.created_at)]));
}

/** Tells the workers a render is waiting; delivered when the caller's transaction commits. */
async function notifyQueued(ex: Executor) {
  await ex.execute(sql`select pg_notify(${RENDER_QUEUED_CHANNEL}, '')`);
}

/**
 * Claims the queued render of the lowest turn, oldest first (fair turns between workspaces), for
 * one attempt (SKIP LOCKED: concurrent workers never take the same render), with the milliseconds since it was created (on the database's clock, which also
 * set created_at: the worker's clock may differ).
 */
const claimOldest = (leaseMs: number) => sql`
  update renders set state = 'processing', attempts = attempts + 1, started_at = coalesce(started_at, now()),
    lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval, updated_at = now()
  where id = (select id from renders where state = 'queued' order by turn, created_at, id limit 1 for update skip locked)
  returning *, (extract(epoch from now() - created_at) * 1000)::int as queued_ms`;

/**
 * Takes the next queued render (lowest turn, oldest first) for one attempt and returns it with its input, in one statement;
 * undefined when none is queued.
 */
export async function claimNextRender(ex: Executor, leaseMs: number): Promise<ClaimedRender | undefined> {
  const [r] = await ex.execute<Record<string, unknown>>(sql`
    with claimed as (${claimOldest(leaseMs)})
    select claimed.*, i.payload from claimed left join render_inputs i on i.render_id = claimed.id`);
  return r ? claimedRenderFrom(r) : undefined;
}

/** How a render ends: with its result, with an error, or cancelled. */
type Final =
  | { state: "succeeded"; pageCount: number; outputBytes: number; durationMs: number; fileKey: string | null; warnings?: RenderWarningRecord[] }
  | { state: "failed"; error: RenderErrorRecord }
  | { state: "cancelled" };

/** The columns an end sets; the result fields are written only by a success, the error only by a failure. */
function endedColumns(final: Final) {
  const ok = final.state === "succeeded";
  return sql`state = ${final.state},
    page_count = ${ok ? final.pageCount : null},
    output_bytes = ${ok ? final.outputBytes : null},
    duration_ms = ${ok ? final.durationMs : null},
    file_key = ${ok ? final.fileKey : null},
    warnings = ${ok && final.warnings?.length ? JSON.stringify(final.warnings) : null}::jsonb,
    error = ${final.state === "failed" ? JSON.stringify(final.error) : null}::jsonb,
    lease_expires_at = null, finished_at = now(), updated_at = now()`;
}

/**
 * The webhook deliveries of the ended renders and the dispatcher's wake-up (lib/webhooks): part of
 * every end, so an event exists exactly when the end does. `woken` must be read by the statement's
 * final select (a plain SELECT in WITH runs only when read).
 */
const webhookEvents = sql`webhooked as (${insertDeliveriesFor(sql`ended`)}),
    woken as (${notifyDue(sql`webhooked`)})`;

/**
 * What every end does besides the state change, as CTEs over `ended` (the renders rows the
 * statement just ended), so it commits with the end or not at all: the usage count, the ended
 * notice, and the deletion of the caller's input. Nothing needs the input once the render has
 * ended (the record keeps what the API shows), and keeping it would keep customers' documents and
 * data for the whole retention period. A render put back in the queue is not ended and keeps it.
 */
const afterEnd = sql`counted as (${countUsage(sql`ended`)}),
    forgotten as (delete from render_inputs where render_id in (select id from ended)),
    notified as (${notifyEnded(sql`ended`)}),
    ${webhookEvents}`;


/**
 * The worker's end of its own attempt, as one statement (no transaction round trips on the hot
 * path): the conditional state change and what every end does (afterEnd) happen only if this
 * attempt still holds the render. With `claimLeaseMs`, the same statement also claims the next
 * queued render for this worker, saving the round trip of a separate claim. Returns whether the
 * attempt ended the render, and the render claimed next.
 */
export async function endAttempt(
  ex: Executor,
  id: string,
  attempt: number,
  final: Exclude<Final, { state: "cancelled" }>,
  claimLeaseMs?: number,
): Promise<{ ended: boolean; next?: ClaimedRender }> {
  const [r] = await ex.execute<Record<string, unknown>>(sql`
    with ended as (
      update renders set ${endedColumns(final)}
      where id = ${id} and attempts = ${attempt} and state = 'processing'
      returning *
    ), ${afterEnd},
    claimed as (${claimLeaseMs === undefined ? sql`select * from renders where false` : claimOldest(claimLeaseMs)})
    select (select count(*) from notified) as ended, (select count(*) from woken) as webhooks_woken, claimed.*, i.payload
    from (select) one left join claimed on true left join render_inputs i on i.render_id = claimed.id`);
  return { ended: Number(r!.ended) === 1, next: r!.id ? claimedRenderFrom(r!) : undefined };
}

/**
 * Ends a render from one of the states `from` for someone other than its worker (a cancel, or the
 * reaper failing an abandoned render), as one statement: the conditional state change, what every
 * end does (afterEnd), and the stop notice for a worker that may still be rendering it. Returns
 * the ended row, or undefined when the render was not in one of those states.
 */
export async function endRender(
  ex: Executor,
  where: { id: string; workspaceId?: string },
  from: readonly RenderRow["state"][],
  final: Exclude<Final, { state: "succeeded" }>,
): Promise<RenderRow | undefined> {
  const inWorkspace = where.workspaceId === undefined ? sql`` : sql` and workspace_id = ${where.workspaceId}`;
  const [r] = await ex.execute<Record<string, unknown>>(sql`
    with ended as (
      update renders set ${endedColumns(final)}
      where id = ${where.id}${inWorkspace} and state in (${sql.join(from.map((s) => sql`${s}`), sql`, `)})
      returning *
    ), ${afterEnd},
    stopped as (select pg_notify(${RENDER_STOP_CHANNEL}, id) from ended)
    select ended.*, (select count(*) from notified) as notified, (select count(*) from stopped) as stopped, (select count(*) from woken) as webhooks_woken from ended`);
  return r ? renderRowFrom(r) : undefined;
}

export const endActiveRender = (ex: Executor, where: { id: string; workspaceId?: string }, final: Exclude<Final, { state: "succeeded" }>) =>
  endRender(ex, where, ACTIVE, final);

/**
 * Cancels the editor previews of `editor` still waiting in the queue (docs/architecture.md, Editor
 * previews): a newer edit supersedes them, and the pane shows only the newest. Each one ends as
 * any cancelled render does (usage, input deleted, its waiting request answered).
 */
export async function supersedeEditorPreviews(ex: Executor, workspaceId: string, editor: string) {
  const waiting = await ex
    .select({ id: renders.id })
    .from(renders)
    .where(and(eq(renders.workspaceId, workspaceId), eq(renders.source, "editorPreview"), eq(renders.state, "queued"), sql`${renders.options}->>'editor' = ${editor}`));
  for (const w of waiting) await endRender(ex, { id: w.id, workspaceId }, ["queued"], { state: "cancelled" });
}

/**
 * Puts a processing render back in the queue for another attempt and wakes the workers, only while
 * `attempt` (the attempts count its claim set) still holds it, as endAttempt does: a late requeue
 * of an earlier attempt (its worker slow to notice the failure, or the reaper's stale read) must
 * not take the render from the attempt that now runs it. Returns the row, or undefined when nothing changed.
 */
export async function requeueRender(ex: Executor, id: string, attempt: number) {
  const [r] = await ex
    .update(renders)
    .set({ state: "queued", leaseExpiresAt: null, updatedAt: sql`now()` })
    .where(and(eq(renders.id, id), eq(renders.attempts, attempt), eq(renders.state, "processing")))
    .returning();
  if (r) await notifyQueued(ex);
  return r;
}
