import { rawSql } from "../db/client";
import { log } from "../log";
import { boss, JOB_CHANNEL } from "./boss";
import { queues, type QueueName, type QueuePayload } from "./catalog";

/** Backstop poll for jobs whose notification was missed (retries that pg-boss delays, a dropped listener). */
const BACKSTOP_MS = 2_000;

export type Drain = { stop: () => Promise<void> };

/**
 * Runs `concurrency` loops that each take one job at a time. A loop fetches again the moment its
 * job is done and sleeps only while the queue is empty, woken by the job's NOTIFY.
 * why not pg-boss work(): with batchSize 1 its loop can miss notifications that arrive together and
 * then wait out its 30 s backstop poll, a fixed delay on the render path.
 */
export async function drain<Q extends QueueName>(name: Q, concurrency: number, handle: (payload: QueuePayload<Q>) => Promise<void>): Promise<Drain> {
  const b = await boss();
  const sleepers = new Set<() => void>();
  let pending = 0; // notifications not yet taken by a loop
  const wakeOne = () => {
    const [first] = sleepers;
    if (first) first();
    else pending = Math.min(pending + 1, concurrency);
  };
  const listener = await rawSql().listen(JOB_CHANNEL, (queue) => {
    if (queue === name) wakeOne();
  });
  let stopping = false;

  const loop = async () => {
    while (!stopping) {
      let job;
      try {
        [job] = await b.fetch<QueuePayload<Q>>(name, { batchSize: 1 });
      } catch (err) {
        log().error({ err, queue: name }, "could not fetch a job");
      }
      if (job) {
        try {
          await handle(queues[name].payload.parse(job.data) as QueuePayload<Q>);
          await b.complete(name, job.id);
        } catch (err) {
          log().error({ err, queue: name, jobId: job.id }, "job failed");
          await b.fail(name, job.id, { message: (err as Error).message }).catch(() => {});
        }
        continue;
      }
      if (pending > 0) {
        pending--;
        continue;
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, BACKSTOP_MS);
        sleepers.add(wake);
      });
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    stop: async () => {
      stopping = true;
      for (const wake of [...sleepers]) wake();
      await Promise.all(loops);
      await listener.unlisten().catch(() => {});
    },
  };
}
