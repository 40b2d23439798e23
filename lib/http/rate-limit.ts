import { sql } from "drizzle-orm";
import { db } from "../db/client";
import { rateLimitCounters } from "../db/schema";
import { rateLimited } from "../errors";
import { log } from "../log";

/**
 * Request counting per client address and clock minute, shared by all web nodes through
 * PostgreSQL (spec: Limits > Request rates).
 *
 * why two paths: while this node has seen fewer than a quarter of the limit in the bucket's window
 * (its own count plus the database's at its last write), a request is counted in memory and the
 * counts are written in one batch every second, so ordinary traffic costs no query. From a quarter
 * of the limit on, every request adds itself in the database and reads the total back, so the
 * limit holds exactly. Up to four web nodes can never pass the limit together this way.
 */

// why a second: each flush wakes the database; at render rates, 100 ms cost half a millisecond of CPU per render.
const FLUSH_MS = 1_000;

type Window = { start: number; synced: number; pending: number };
type State = { windows: Map<string, Window>; timer?: NodeJS.Timeout };
const key = Symbol.for("folio.rateLimit");
const state: State = ((globalThis as unknown as Record<symbol, State>)[key] ??= { windows: new Map() });

const windowStart = (now: Date) => Math.floor(now.getTime() / 60_000) * 60_000;

/**
 * Counts one request in the bucket's current clock minute; over `limit` throws 429 with Retry-After.
 * `what` names what is counted in the message ("requests", "sign-in attempts").
 */
export async function countRequest(bucket: string, limit: number, now = new Date(), what = "requests") {
  const start = windowStart(now);
  let w = state.windows.get(bucket);
  if (!w || w.start !== start) state.windows.set(bucket, (w = { start, synced: 0, pending: 0 }));
  if ((w.synced + w.pending + 1) * 4 <= limit) {
    w.pending++;
    state.timer ??= setTimeout(() => void flush(), FLUSH_MS).unref();
    return;
  }
  const add = w.pending + 1;
  w.pending = 0;
  let count: number;
  try {
    count = await addCount(bucket, start, add);
  } catch (e) {
    w.pending += add - 1;
    throw e;
  }
  w.synced = Math.max(w.synced, count);
  if (count > limit) {
    const retryAfter = Math.max(1, Math.ceil((start + 60_000 - now.getTime()) / 1000));
    throw rateLimited(`More than ${limit} ${what} this minute from your address; retry after ${retryAfter} s`, retryAfter);
  }
}

async function addCount(bucket: string, start: number, n: number): Promise<number> {
  const [row] = await db()
    .insert(rateLimitCounters)
    .values({ bucket, windowStart: new Date(start), count: n })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + excluded.count` },
    })
    .returning({ count: rateLimitCounters.count });
  return row?.count ?? n;
}

/** Writes the counts held in memory, one statement for all buckets, and forgets ended windows. */
async function flush() {
  state.timer = undefined;
  const current = windowStart(new Date());
  const batch: { bucket: string; windowStart: Date; count: number }[] = [];
  const taken: [Window, number][] = [];
  for (const [bucket, w] of state.windows) {
    if (w.pending > 0) {
      batch.push({ bucket, windowStart: new Date(w.start), count: w.pending });
      taken.push([w, w.pending]);
      w.pending = 0;
    }
    if (w.start < current && w.pending === 0) state.windows.delete(bucket);
  }
  if (batch.length === 0) return;
  try {
    const rows = await db()
      .insert(rateLimitCounters)
      .values(batch)
      .onConflictDoUpdate({
        target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
        set: { count: sql`${rateLimitCounters.count} + excluded.count` },
      })
      .returning({ bucket: rateLimitCounters.bucket, windowStart: rateLimitCounters.windowStart, count: rateLimitCounters.count });
    for (const r of rows) {
      const w = state.windows.get(r.bucket);
      if (w && w.start === r.windowStart.getTime()) w.synced = Math.max(w.synced, r.count);
    }
  } catch (err) {
    for (const [w, n] of taken) w.pending += n; // counted again at the next flush
    state.timer ??= setTimeout(() => void flush(), FLUSH_MS).unref();
    log().warn({ err }, "could not write request counts");
  }
}

/** Drops windows that ended more than a minute ago (the worker's maintenance job). */
export async function pruneRateLimitCounters(now = new Date()) {
  await db().delete(rateLimitCounters).where(sql`${rateLimitCounters.windowStart} < ${new Date(now.getTime() - 120_000).toISOString()}::timestamptz`);
}
