import type { PgBoss } from "pg-boss";
import type { QueuePayload } from "@/lib/jobs/catalog";
import { log } from "@/lib/log";
import { attemptDelivery } from "@/lib/webhooks/deliver";

type Payload = QueuePayload<"webhook-delivery">;

/** One attempt of a webhook delivery; the outcome is recorded on the delivery, never thrown. */
export async function handleWebhookDelivery(job: Payload) {
  await attemptDelivery(job.deliveryId, job.attempts);
}

/**
 * The worker's pool of webhook attempts: up to `slots` at once, at most `perEndpoint` of one
 * endpoint across all workers (pg-boss group concurrency, the group being the endpoint). It fetches
 * as soon as a slot frees, when woken (a dispatch of this worker) and every 2 s (another worker's).
 *
 * why not pg-boss's work(): its pollers wait a polling interval whenever a fetch comes back short,
 * and with a per-group limit most fetches of a burst to one endpoint do; 50 attempts of 50 ms then
 * took 9 s. A pool that fetches whenever a slot frees keeps every slot busy, and each job is
 * completed alone, so a slow receiver holds only its own slots.
 */
export function webhookDeliveryPool(b: PgBoss, opts: { slots: number; perEndpoint: number }) {
  let inFlight = 0;
  let pumping = false;
  let again = false;
  let stopped = false;
  const idle: (() => void)[] = [];

  const run = async (job: { id: string; data: Payload }) => {
    try {
      await handleWebhookDelivery(job.data);
      await b.complete("webhook-delivery", job.id);
    } catch (err) {
      log().error({ err, deliveryId: job.data.deliveryId }, "webhook delivery job failed");
      await b.fail("webhook-delivery", job.id).catch(() => undefined); // pg-boss retries it
    } finally {
      inFlight--;
      if (inFlight === 0) idle.splice(0).forEach((f) => f());
      void pump();
    }
  };

  const pump = async () => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && inFlight < opts.slots) {
          const jobs = await b.fetch<Payload>("webhook-delivery", { batchSize: opts.slots - inFlight, groupConcurrency: opts.perEndpoint });
          if (jobs.length === 0) break;
          inFlight += jobs.length;
          for (const job of jobs) void run(job);
        }
      } while (again && !stopped);
    } catch (err) {
      log().error({ err }, "could not fetch webhook deliveries");
    } finally {
      pumping = false;
    }
  };

  const timer = setInterval(() => void pump(), 2_000);
  return {
    wake: () => void pump(),
    /** Takes no more jobs and waits for the attempts in flight (each at most 10 s). */
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (inFlight > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
