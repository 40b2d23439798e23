import { db } from "../db/client";
import { pruneRateLimitCounters } from "../http/rate-limit";
import { pruneIdempotencyRecords } from "../idempotency";
import { prunePasswordFailures } from "../users/password-attempts";

/** Keeps the shared rate-limit counters, password failure counts and idempotency records small. */
export async function runMaintenance() {
  await pruneRateLimitCounters();
  await prunePasswordFailures();
  await pruneIdempotencyRecords(db());
}
