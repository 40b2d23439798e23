import { rawSql } from "../db/client";
import { log } from "../log";

/** Backstop poll for work whose notification was missed (a dropped listener). */
const BACKSTOP_MS = 2_000;

export type Drain = { stop: () => Promise<void> };

/**
 * Runs `concurrency` loops that each take work with `next(running)` (which returns false when it
 * found none, and may go on taking work while `running()`). A loop takes the next piece the
 * moment one is done and sleeps only while there is nothing to do, woken by a NOTIFY on `channel`.
 */
export async function drain(opts: { name: string; channel: string; concurrency: number; next: (running: () => boolean) => Promise<boolean> }): Promise<Drain> {
  const sleepers = new Set<() => void>();
  let pending = 0; // notifications no sleeping loop took
  const listener = await rawSql().listen(opts.channel, () => {
    const [first] = sleepers;
    if (first) first();
    else pending = Math.min(pending + 1, opts.concurrency);
  });
  let stopping = false;
  const running = () => !stopping;

  const loop = async () => {
    while (!stopping) {
      let worked = false;
      try {
        worked = await opts.next(running);
      } catch (err) {
        log().error({ err, queue: opts.name }, "work failed");
      }
      if (worked) continue;
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
  const loops = Array.from({ length: opts.concurrency }, loop);
  return {
    stop: async () => {
      stopping = true;
      for (const wake of [...sleepers]) wake();
      await Promise.all(loops);
      await listener.unlisten().catch(() => {});
    },
  };
}
