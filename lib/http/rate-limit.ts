import { sql } from "drizzle-orm";
import { db } from "../db/client";
import { rateLimitCounters } from "../db/schema";
import { rateLimited } from "../errors";

/**
 * Counts one request in the bucket's current clock minute, in PostgreSQL so every web node shares
 * the count; over `limit` it throws 429 RATE_LIMITED with Retry-After until the next minute.
 */
export async function countRequest(bucket: string, limit: number, now = new Date()) {
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const [row] = await db()
    .insert(rateLimitCounters)
    .values({ bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  if (row && row.count > limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + 60_000 - now.getTime()) / 1000));
    throw rateLimited(`More than ${limit} requests this minute from your address; retry after ${retryAfter} s`, retryAfter);
  }
}

/** Drops windows that ended more than a minute ago (the worker's maintenance job). */
export async function pruneRateLimitCounters(now = new Date()) {
  await db().delete(rateLimitCounters).where(sql`${rateLimitCounters.windowStart} < ${new Date(now.getTime() - 120_000).toISOString()}::timestamptz`);
}
