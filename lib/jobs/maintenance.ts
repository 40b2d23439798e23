import { db } from "../db/client";
import { pruneRateLimitCounters } from "../http/rate-limit";
import { pruneIdempotencyRecords } from "../idempotency";

/** Keeps the shared rate-limit counters and the idempotency records small. */
export async function runMaintenance() {
  await pruneRateLimitCounters();
  await pruneIdempotencyRecords(db());
}
