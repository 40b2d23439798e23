import { rawSql, withTx } from "../db/client";
import { enqueueMany } from "../jobs/boss";
import * as repo from "./repository";

const BATCH = 200;
/**
 * How long a handed-over attempt is not handed over again. pg-boss keeps a job until it is done
 * (retrying one whose worker died), so this only catches a job that was lost for good; a second
 * job for the same attempt does nothing (the attempts count no longer matches).
 */
export const DISPATCH_LEASE_MS = 30 * 60_000;

/**
 * Hands every due pending delivery to the webhook-delivery queue: the claim and the jobs commit
 * together, so a process dying in between loses neither. The worker runs this when woken
 * (NOTIFY folio_webhook_due from the statement that ended a render) and every 2 seconds (due
 * retries, missed notifications). Returns how many it handed over.
 */
export async function dispatchDueDeliveries(): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await withTx(async (tx) => {
      const due = await repo.claimDueDeliveries(tx, BATCH, DISPATCH_LEASE_MS);
      await enqueueMany(
        tx,
        "webhook-delivery",
        due.map((d) => ({ data: { deliveryId: d.id, attempts: d.attempts }, group: { id: d.endpointId } })),
      );
      return due.length;
    });
    total += n;
    if (n < BATCH) return total;
  }
}

/**
 * The worker's dispatcher: runs dispatchDueDeliveries when `wake` is called, at most one run at a
 * time (a call during a run makes one more run after it); after `stop` it hands nothing over (the
 * worker is stopping and pg-boss with it).
 */
export function coalescedDispatcher(onDispatched: () => void, onError: (err: unknown) => void): { wake: () => void; stop: () => void } {
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    running = true;
    try {
      do {
        again = false;
        if ((await dispatchDueDeliveries()) > 0) onDispatched();
      } while (again && !stopped);
    } catch (err) {
      onError(err);
    } finally {
      running = false;
    }
  };
  return {
    wake: () => {
      if (stopped) return;
      if (running) again = true;
      else void run();
    },
    stop: () => void (stopped = true),
  };
}

/** Calls `fn` whenever a statement says deliveries became due (NOTIFY folio_webhook_due). */
export async function onDeliveriesDue(fn: () => void) {
  await rawSql().listen(repo.WEBHOOK_DUE_CHANNEL, () => fn());
}
