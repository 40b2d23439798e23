/** The benchmarks' shared measuring: latency statistics, and running a unit of work at a concurrency. */

export type Stats = { n: number; seconds: number; p50: number; p95: number; perSecond: number };

export function stats(latencies: number[], seconds: number): Stats {
  const s = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { n: s.length, seconds, p50: at(0.5), p95: at(0.95), perSecond: s.length / seconds };
}

export type Run = { latencies: number[]; seconds: number };

/** Runs `one` `total` times with `concurrency` in flight. */
export async function drive(total: number, concurrency: number, one: (i: number, lane: number) => Promise<void>): Promise<Run> {
  let next = 0;
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await one(i, lane);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - start) / 1000 };
}

export const warm = async (n: number, concurrency: number, one: (i: number, lane: number) => Promise<void>) => {
  for (let i = 0; i < n; i++) await one(i, i % concurrency);
};

/** The runs' latencies together, over their summed time. */
export const merge = (rs: Run[]) => stats(rs.flatMap((r) => r.latencies), rs.reduce((a, r) => a + r.seconds, 0));
