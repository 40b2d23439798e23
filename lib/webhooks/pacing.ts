/** Pacing of the worker's webhook attempts (worker/jobs/webhook-delivery.ts). */

/**
 * A token bucket of attempt starts: `perSecond()` tokens a second (read at every refill, so a
 * change applies at once), holding at most a quarter of a second's worth; no limit while it
 * answers undefined. Under a limit it hands out whole batches (a quarter second's worth: a fetch
 * of a few jobs costs about what a fetch of one does), whose starts the pool spreads `gapMs()`
 * apart (the worker's event loop, PostgreSQL and the receiver then see a steady trickle, not
 * bursts that hold up a render). `clock` (milliseconds) is for tests.
 */
export function startLimiter(perSecond: () => number | undefined, clock: () => number = () => performance.now()) {
  let tokens = 0;
  let at = clock();
  let timer: NodeJS.Timeout | undefined;
  const batchOf = (rate: number) => Math.max(1, Math.floor(rate / 4));
  const refill = () => {
    const rate = perSecond();
    const now = clock();
    if (rate === undefined) tokens = Infinity;
    else tokens = Math.min(batchOf(rate), (Number.isFinite(tokens) ? tokens : batchOf(rate)) + ((now - at) / 1000) * rate);
    at = now;
    return rate;
  };
  /** How many of `room` may start: all without a limit, else a batch (at most `room`). */
  const need = (rate: number | undefined, room: number) => (rate === undefined ? room : Math.min(room, batchOf(rate)));
  return {
    /** How many may start now (at most `room`), or 0 until a batch is there. */
    available: (room: number) => {
      const rate = refill();
      const n = need(rate, room);
      return tokens >= n ? n : 0;
    },
    take: (n: number) => void (tokens -= n),
    /** Milliseconds between two starts of a batch; 0 without a limit. */
    gapMs: () => {
      const rate = perSecond();
      return rate === undefined ? 0 : 1000 / rate;
    },
    /** Calls `fn` once when `available(room)` will be more than 0 (one call pending at a time). */
    wakeWhenAvailable: (room: number, fn: () => void) => {
      if (timer) return;
      const rate = refill() ?? 1000;
      timer = setTimeout(
        () => {
          timer = undefined;
          fn();
        },
        Math.max(1, Math.ceil(((need(rate, room) - tokens) / rate) * 1000)),
      );
    },
    stop: () => clearTimeout(timer),
  };
}
