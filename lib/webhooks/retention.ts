import { config } from "../config";
import { db } from "../db/client";
import * as repo from "./repository";

const BATCH = 1000;

/** spec: Events > Delivery and retry rules: delivery records are kept as long as renders (RETENTION_DAYS). */
export async function purgeExpiredDeliveries(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - config().RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await repo.deleteExpiredDeliveries(db(), cutoff, BATCH);
    total += n;
    if (n < BATCH) return total;
  }
}
