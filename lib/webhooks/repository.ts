import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../db/client";
import { olderThan } from "../db/paging";
import { webhookDeliveries, webhookEndpoints, type WebhookDeliveryRow, type WebhookEndpointRow } from "../db/schema";
import type { Cursor } from "../paging";

/** NOTIFY channel that wakes the worker's delivery dispatcher: deliveries became due. */
export const WEBHOOK_DUE_CHANNEL = "folio_webhook_due";

export async function countEndpoints(ex: Executor, workspaceId: string): Promise<number> {
  const [r] = await ex.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
  return r!.n;
}

/** Serialises endpoint creation per workspace (a lock on its row, held until the transaction ends). */
export async function lockWorkspaceEndpoints(ex: Executor, workspaceId: string) {
  await ex.execute(sql`select 1 from workspaces where id = ${workspaceId} for no key update`);
}

export async function insertEndpoint(ex: Executor, row: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
  const [r] = await ex.insert(webhookEndpoints).values(row).returning();
  return r!;
}

export function listEndpoints(ex: Executor, workspaceId: string): Promise<WebhookEndpointRow[]> {
  return ex
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function findEndpoint(ex: Executor, workspaceId: string, id: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)));
  const [r] = await (opts.forUpdate ? q.for("update") : q);
  return r;
}

export async function updateEndpoint(ex: Executor, id: string, set: Partial<typeof webhookEndpoints.$inferInsert>) {
  const [r] = await ex
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return r!;
}

/** Deletes an endpoint; its deliveries go with it (foreign key, on delete cascade). */
export async function deleteEndpoint(ex: Executor, id: string) {
  await ex.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/** One page of an endpoint's deliveries, newest first (limit + 1 rows). */
export function listDeliveries(ex: Executor, endpointId: string, cursor: Cursor | undefined, limit: number): Promise<WebhookDeliveryRow[]> {
  return ex
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), olderThan(webhookDeliveries.createdAt, webhookDeliveries.id, cursor)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
}

export async function findDelivery(ex: Executor, endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
  const [r] = await ex
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, id)));
  return r;
}

/**
 * The deliveries of every PDF render in `ended` (the renders rows a statement just ended, as a
 * CTE), one per subscribed, enabled endpoint of its workspace that existed when it ended, as a CTE
 * body to add to that statement: they commit with the end or not at all. A workspace without
 * endpoints costs one probe of webhook_endpoints_workspace_idx. The event id is derived from the
 * render's (a render ends once, so it has one event); the delivery id is random.
 */
export function insertDeliveriesFor(ended: SQL) {
  return sql`insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, render_id, payload, status, next_attempt_at)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), r.workspace_id, e.id, 'evt_' || substr(r.id, 5), 'render.' || r.state, r.id,
      jsonb_build_object('id', 'evt_' || substr(r.id, 5), 'type', 'render.' || r.state,
        'createdAt', to_char(r.finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', jsonb_strip_nulls(jsonb_build_object('renderId', r.id, 'status', r.state, 'test', r.test,
          'errorCode', case when r.state = 'failed' then r.error->>'code' end))),
      'pending', now()
    from ${ended} r
    join webhook_endpoints e on e.workspace_id = r.workspace_id and e.enabled and e.event_types ? ('render.' || r.state) and e.created_at <= r.finished_at
    where r.format = 'pdf'
    returning 1`;
}

/** NOTIFY of the dispatcher when `inserted` (the CTE of insertDeliveriesFor) inserted any row. */
export function notifyDue(inserted: SQL) {
  return sql`select pg_notify(${WEBHOOK_DUE_CHANNEL}, '') from (select 1 from ${inserted} limit 1) any_inserted`;
}

export type DueDelivery = { id: string; endpointId: string; attempts: number };

/**
 * Hands up to `limit` due pending deliveries (oldest due first) to the caller for `leaseMs`: they
 * are not handed over again until then (SKIP LOCKED: concurrent dispatchers never take the same).
 */
export async function claimDueDeliveries(ex: Executor, limit: number, leaseMs: number): Promise<DueDelivery[]> {
  const rows = await ex.execute<{ id: string; endpoint_id: string; attempts: number }>(sql`
    update webhook_deliveries set dispatched_until = now() + ${`${leaseMs} milliseconds`}::interval
    where id in (
      select id from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now() and (dispatched_until is null or dispatched_until < now())
      order by next_attempt_at limit ${limit} for update skip locked)
    returning id, endpoint_id, attempts`);
  return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id, attempts: r.attempts }));
}

/** A delivery with its endpoint, for an attempt; undefined when either is gone. */
export async function findForAttempt(ex: Executor, id: string) {
  const [r] = await ex
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, id));
  return r;
}

/** findForAttempt of several deliveries in one statement: those that still exist, with their endpoints. */
export function findManyForAttempt(ex: Executor, ids: string[]) {
  return ex
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(inArray(webhookDeliveries.id, ids));
}

export type AttemptRecord = { id: string; attempts: number; set: Pick<WebhookDeliveryRow, "status" | "lastStatusCode" | "lastError" | "lastAttemptAt" | "nextAttemptAt"> };

/**
 * recordAttempt of several deliveries in one statement, each on its own condition; the ids
 * recorded. why `in (ids)` beside the join: the planner cannot see into jsonb_to_recordset and
 * scanned the whole table to join it; the ids lead it to the primary key.
 */
/** Attempt records as the rows of jsonb_to_recordset in recordAttempts and recordOutcomes. */
function rowsOf(records: AttemptRecord[]) {
  return records.map((r) => ({
    id: r.id,
    attempts: r.attempts,
    status: r.set.status,
    last_status_code: r.set.lastStatusCode,
    last_error: r.set.lastError,
    last_attempt_at: r.set.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: r.set.nextAttemptAt?.toISOString() ?? null,
  }));
}

export async function recordAttempts(ex: Executor, records: AttemptRecord[]): Promise<Set<string>> {
  const values = rowsOf(records);
  const rows = await ex.execute<{ id: string }>(sql`
    update webhook_deliveries d set status = v.status, attempts = v.attempts + 1, last_status_code = v.last_status_code,
      last_error = v.last_error, last_attempt_at = v.last_attempt_at, next_attempt_at = v.next_attempt_at, dispatched_until = null
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, attempts int, status text, last_status_code int,
      last_error text, last_attempt_at timestamptz, next_attempt_at timestamptz)
    where d.id in (${sql.join(
      values.map((v) => sql`${v.id}`),
      sql`, `,
    )}) and d.id = v.id and d.attempts = v.attempts
    returning d.id`);
  return new Set(rows.map((r) => r.id));
}

/**
 * The outcomes of attempts claimed by recordAttempts or recordAttempt (`attempts` is the claimed
 * number, `set.lastAttemptAt` the claim's time): each replaces its claim's interim record, unless a
 * later attempt was claimed since (then that one's record stands).
 */
export async function recordOutcomes(ex: Executor, records: AttemptRecord[]): Promise<void> {
  const values = rowsOf(records);
  await ex.execute(sql`
    update webhook_deliveries d set status = v.status, last_status_code = v.last_status_code, last_error = v.last_error,
      next_attempt_at = v.next_attempt_at
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, attempts int, status text, last_status_code int,
      last_error text, last_attempt_at timestamptz, next_attempt_at timestamptz)
    where d.id in (${sql.join(
      values.map((v) => sql`${v.id}`),
      sql`, `,
    )}) and d.id = v.id and d.attempts = v.attempts and d.last_attempt_at = v.last_attempt_at`);
}

/**
 * Records attempt number `attempts + 1`, only if no other attempt was recorded since the caller
 * read `attempts` (two workers, or a redelivery and a scheduled retry, never both count).
 */
export async function recordAttempt(
  ex: Executor,
  id: string,
  attempts: number,
  set: Pick<WebhookDeliveryRow, "status" | "lastStatusCode" | "lastError" | "lastAttemptAt" | "nextAttemptAt">,
): Promise<WebhookDeliveryRow | undefined> {
  const [r] = await ex
    .update(webhookDeliveries)
    .set({ ...set, attempts: attempts + 1, dispatchedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.attempts, attempts)))
    .returning();
  return r;
}

/** spec: Delivery records are kept as long as renders. Deletes up to `limit` older than `cutoff`. */
export async function deleteExpiredDeliveries(ex: Executor, cutoff: Date, limit: number): Promise<number> {
  const rows = await ex.execute(sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where created_at < ${cutoff.toISOString()}::timestamptz limit ${limit})
    returning 1`);
  return rows.length;
}
