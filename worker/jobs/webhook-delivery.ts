import type { PgBoss } from "pg-boss";
import type { QueuePayload } from "@/lib/jobs/catalog";
import { log } from "@/lib/log";
import { attemptScheduledDelivery } from "@/lib/webhooks/deliver";
import { startLimiter } from "@/lib/webhooks/pacing";

type Payload = QueuePayload<"webhook-delivery">;

/** One attempt of a webhook delivery; the outcome is recorded on the delivery, never thrown. */
export async function handleWebhookDelivery(job: Payload) {
  await attemptScheduledDelivery(job.deliveryId, job.attempts);
}

/** How many attempts must end after a fetch came back short before the pool fetches again. */
export const REFETCH_AFTER = 4;

/**
 * The worker's pool of webhook attempts: up to `slots` at once, at most `perEndpoint` of one
 * endpoint across all workers (pg-boss group concurrency, the group being the endpoint). It fetches
 * when woken (a dispatch of this worker), every 2 s (another worker's), and as attempts end.
 *
 * why not pg-boss's work(): its pollers wait a polling interval whenever a fetch comes back short,
 * and with a per-group limit most fetches of a burst to one endpoint do; 50 attempts of 50 ms then
 * took 9 s. A pool that fetches as slots free keeps the slots busy, and each job is completed on its
 * own outcome, so a slow receiver holds only its own slots.
 *
 * why not a fetch at every attempt's end: a fetch is pg-boss's heaviest statement (it counts the
 * active jobs of every group), and after a fetch that came back short (the endpoint at its limit,
 * or nothing due) the next one, at once, mostly finds nothing again; fetching and completing one
 * job at a time cost two fetches and a completion per delivery, and 1,000 deliveries slowed the
 * renders beside them by half. So after a short fetch the pool waits until REFETCH_AFTER attempts
 * ended (or all of them, or a wake), and ended jobs are completed together, just before the next
 * fetch (their group's slots count as taken until then) or within 200 ms.
 *
 * `startsPerSecond` says how many attempts may start per second now (undefined: as many as the
 * slots take). The worker limits them while it renders: an attempt costs CPU (its statements, the
 * signing, the connection) that a burst of them takes from the renders beside them.
 */
export function webhookDeliveryPool(b: PgBoss, opts: { slots: number; perEndpoint: number; startsPerSecond?: () => number | undefined }) {
  let inFlight = 0;
  const starts = startLimiter(opts.startsPerSecond ?? (() => undefined));
  let pumping = false;
  let again = false;
  let stopped = false;
  /** After a short fetch: fetch again once inFlight is down to this (or on a wake). */
  let refetchAt = Infinity;
  const ended: string[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const idle: (() => void)[] = [];

  const flush = async () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (ended.length === 0) return;
    const ids = ended.splice(0);
    try {
      await b.complete("webhook-delivery", ids);
    } catch (err) {
      // The attempts are recorded on their deliveries; an uncompleted job expires and runs again, finding its attempt done.
      log().error({ err }, "could not complete webhook delivery jobs");
    }
  };

  const run = async (job: { id: string; data: Payload }) => {
    let ok = false;
    try {
      await handleWebhookDelivery(job.data);
      ok = true;
    } catch (err) {
      log().error({ err, deliveryId: job.data.deliveryId }, "webhook delivery job failed");
      await b.fail("webhook-delivery", job.id).catch(() => undefined); // pg-boss retries it
    } finally {
      if (ok) {
        ended.push(job.id);
        flushTimer ??= setTimeout(() => void flush().then(settleIdle), 200);
      }
      inFlight--;
      settleIdle();
      if (inFlight <= refetchAt) void pump();
    }
  };
  const settleIdle = () => {
    if (inFlight === 0 && ended.length === 0) idle.splice(0).forEach((f) => f());
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
        await flush();
        refetchAt = -1;
        while (!stopped && inFlight < opts.slots) {
          const room = opts.slots - inFlight;
          const want = starts.available(room);
          if (want < 1) {
            starts.wakeWhenAvailable(room, () => void pump());
            break;
          }
          const jobs = await b.fetch<Payload>("webhook-delivery", { batchSize: want, groupConcurrency: opts.perEndpoint });
          starts.take(jobs.length);
          inFlight += jobs.length;
          const gap = starts.gapMs();
          jobs.forEach((job, i) => (gap === 0 || i === 0 ? void run(job) : setTimeout(() => void run(job), i * gap)));
          if (jobs.length < want) {
            refetchAt = Math.max(0, inFlight - REFETCH_AFTER);
            break;
          }
        }
      } while (again && !stopped);
    } catch (err) {
      log().error({ err }, "could not fetch webhook deliveries");
      refetchAt = Math.max(0, inFlight - REFETCH_AFTER);
    } finally {
      pumping = false;
    }
  };

  const timer = setInterval(() => void pump(), 2_000);
  return {
    wake: () => void pump(),
    /** Takes no more jobs, waits for the attempts in flight (each at most 10 s) and completes their jobs. */
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      starts.stop();
      if (inFlight > 0) await new Promise<void>((resolve) => idle.push(resolve));
      await flush();
    },
  };
}
