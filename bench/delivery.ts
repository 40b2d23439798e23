/**
 * npm run bench -- --delivery (bench/run.ts starts the servers and calls this): the two
 * performance rows of issue 11, against an S3-compatible server (s3rver) and HTTP receivers on
 * loopback, in one run of its own.
 *
 * 1. Destination and webhook overhead. The 1-page invoice rendered one at a time (c=1) from a
 *    workspace with neither a destination nor a webhook endpoint ("plain"), and from a workspace
 *    with a webhook endpoint subscribed to render.succeeded (a receiver answering 204 at once)
 *    with a storage destination on s3rver, keeping the service copy ("dest+copy") and not
 *    ("dest, no copy"). The arms take turns render by render, their order rotating every round,
 *    so machine noise hits them alike. End to end here is the answer of POST /v1/renders with
 *    waitMs (the render succeeded: uploaded, stored, its webhook delivery queued), the same for
 *    every arm: a render that keeps no copy has no file to download, and the destination's object
 *    is the caller's, not the service's, to fetch. The webhook itself is sent after that answer;
 *    its lag (receiver's arrival minus the answer) and how many arrived are printed beside.
 * 2. Deliveries against renders. A steady stream of plain invoice renders at concurrency 2
 *    (WORKER_CONCURRENCY=2, the worker kept busy) runs throughout; between windows of the stream
 *    alone, N webhook deliveries (default 1,000) are queued at once to one receiver answering
 *    each after 50 ms, in a process of its own (bench/receiver-process.ts: the machine's CPU is
 *    shared, the event loop timing the renders is not) (rows written straight into webhook_deliveries, as bench/webhooks.ts does:
 *    the delivery pipeline, not the renders that would have made them). Prints how long until
 *    all arrived and all were recorded succeeded (target 30 s), and the stream's throughput and
 *    p50 while deliveries were in flight against the windows without (target: at most 10% slower).
 */
import type { Receiver } from "../lib/testing/webhooks";
import { measureCpu, type Groups } from "./cpu";
import { invoiceHtml } from "./documents";
import { drive, stats, warm, type Stats } from "./measure";

/** `cpuGroups`: the processes whose CPU time is printed per second of each kind of window of row 2. */
type Options = { baseUrl: string; quick: boolean; deliveries: number; cpuGroups: Groups; rows: { overhead: boolean; burst: boolean } };
type RenderAnswer = { id: string; state: string; result?: { destination?: { name: string; key: string }; downloadUrl?: string } };

const BUCKET = "folio-bench";
const BURST_ANSWER_MS = 50;

export async function deliveryBench(o: Options): Promise<string[]> {
  const { startS3rver, S3RVER_KEYS } = await import("../lib/testing/s3");
  const { startReceiver } = await import("../lib/testing/webhooks");
  const { createWorkspace, setLimits } = await import("../lib/workspaces");
  const { createKeyAsSystem } = await import("../lib/keys");
  const { systemCtx } = await import("../lib/auth/context");
  const { closeDb } = await import("../lib/db/client");

  const workspaceKey = async (name: string) => {
    const w = await createWorkspace("bench", name);
    const ctx = systemCtx(w.id, "bench");
    // why: the benchmark sends renders far faster than the default allowances admit.
    await setLimits(ctx, { maxActiveRenders: 100_000, rendersPerMinute: 1_000_000 });
    return { id: w.id, key: (await createKeyAsSystem(ctx, "bench", ["render:create", "render:read", "destination:manage", "webhook:manage"], null)).secret };
  };
  const plain = await workspaceKey("Bench plain");
  const delivered = await workspaceKey("Bench delivered");
  const burst = await workspaceKey("Bench burst");

  const s3 = await startS3rver([BUCKET]);
  const quickReceiver = await startReceiver(() => ({ status: 204 }));
  const slowReceiver = await startReceiverProcess(BURST_ANSWER_MS);
  try {
    const call = async (key: string, path: string, body: unknown) => {
      const res = await fetch(`${o.baseUrl}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
      const answer = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    await call(delivered.key, "/v1/storage-destinations", {
      name: "Bench",
      endpoint: s3.endpoint,
      region: "us-east-1",
      bucket: BUCKET,
      forcePathStyle: true,
      ...S3RVER_KEYS,
    });
    await call(delivered.key, "/v1/webhook-endpoints", { url: quickReceiver.url, eventTypes: ["render.succeeded"] });
    await call(burst.key, "/v1/webhook-endpoints", { url: slowReceiver.url, eventTypes: ["render.succeeded"] });

    const html = invoiceHtml(1);
    /** POST /v1/renders with waitMs until it answers succeeded: one end-to-end render of this mode. */
    const render = async (key: string, extra: Record<string, unknown> = {}) => {
      const res = await fetch(`${o.baseUrl}/v1/renders`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ document: { html }, ...extra, waitMs: 60_000 }),
      });
      const r = (await res.json()) as RenderAnswer;
      if (res.status !== 200 || r.state !== "succeeded") throw new Error(`render did not succeed: ${res.status} ${JSON.stringify(r)}`);
      if (extra.destination && !r.result?.destination) throw new Error(`render has no result.destination: ${JSON.stringify(r)}`);
      return r;
    };

    const lines = o.rows.overhead ? [await overhead(o, render, plain.key, delivered.key, quickReceiver, s3)] : [];
    if (o.rows.burst) lines.push(...(await deliveriesAgainstRenders(o, () => render(plain.key).then(() => undefined), burst.id, slowReceiver)));
    return lines;
  } finally {
    await Promise.all([s3.stop(), quickReceiver.close()]);
    slowReceiver.stop();
    await closeDb();
  }
}

/** Row 1: plain against destination (with and without the service copy) and webhook, render by render. */
async function overhead(
  o: Options,
  render: (key: string, extra?: Record<string, unknown>) => Promise<RenderAnswer>,
  plainKey: string,
  deliveredKey: string,
  receiver: Receiver,
  s3: { keys: (bucket: string, prefix?: string) => Promise<string[]> },
) {
  const answeredAt = new Map<string, number>();
  const destination = (keepCopy: boolean) => ({ destination: { name: "Bench", path: "{renderId}.pdf", keepCopy } });
  const arms = [
    { label: "plain", key: plainKey, extra: {}, delivered: false },
    { label: "dest+copy+webhook", key: deliveredKey, extra: destination(true), delivered: true },
    { label: "dest, no copy+webhook", key: deliveredKey, extra: destination(false), delivered: true },
  ].map((a) => ({ ...a, latencies: [] as number[] }));
  const one = (arm: (typeof arms)[number], record: boolean) => async () => {
    const t = performance.now();
    const r = await render(arm.key, arm.extra);
    if (record) arm.latencies.push(performance.now() - t);
    if (arm.delivered) answeredAt.set(r.id, Date.now());
  };
  for (const arm of arms) await warm(10, 1, one(arm, false));

  const perArm = o.quick ? 30 : 150;
  const start = performance.now();
  // Round r runs every arm once, starting with arm r mod 3: each arm goes first, second and third alike.
  await drive(perArm * arms.length, 1, (i) => one(arms[(i + Math.floor(i / arms.length)) % arms.length]!, true)());
  const seconds = (performance.now() - start) / 1000;

  const expected = answeredAt.size;
  const arrived = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ids = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { data: { renderId: string } }).data.renderId));
      const n = [...answeredAt.keys()].filter((id) => ids.has(id)).length;
      if (n === expected || Date.now() > deadline) return n;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const received = await arrived();
  const lags = receiver.received.flatMap((r) => {
    const at = answeredAt.get((JSON.parse(r.body) as { data: { renderId: string } }).data.renderId);
    return at === undefined ? [] : [r.at - at];
  });
  const lag = stats(lags, 1);
  const objects = (await s3.keys(BUCKET)).filter((k) => answeredAt.has(k.replace(/\.pdf$/, ""))).length;

  const s = arms.map((a) => ({ label: a.label, ...stats(a.latencies, seconds) }));
  const base = s[0]!;
  const f = (n: number) => n.toFixed(1).padStart(7);
  const row = (x: Stats & { label: string }) => `${x.label.padEnd(22)} | ${f(x.p50)}  ${f(x.p95)} | ${x === base ? "      -" : f(x.p50 - base.p50)}`;
  const worst = Math.max(...s.slice(1).map((x) => x.p50 - base.p50));
  return [
    `\nDestination (s3rver) and webhook (receiver answering 204) against neither: invoice, c=1, ${perArm} renders per arm, arms alternating render by render`,
    "end to end = POST /v1/renders with waitMs until it answers succeeded (no download: a render without a copy has none)\n",
    "arm                    |     p50      p95 | p50 +ms",
    ...s.map(row),
    `\nWebhooks: ${received} of ${expected} deliveries arrived (${expected - received} missing); lag from the render's answer to the receiver p50 ${lag.p50.toFixed(0)} ms, p95 ${lag.p95.toFixed(0)} ms`,
    `Objects in the bucket: ${objects} of ${expected}`,
    `Target: a destination and a webhook add at most 30 ms p50: +${worst.toFixed(1)} ms (the worse of the two destination arms)`,
  ].join("\n");
}

type ReceiverProcess = { url: string; count: () => Promise<number>; waitFor: (n: number) => Promise<void>; stop: () => void };

/** bench/receiver-process.ts started, answering after `delayMs`. */
async function startReceiverProcess(delayMs: number): Promise<ReceiverProcess> {
  const { spawn } = await import("node:child_process");
  const path = await import("node:path");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "receiver-process.ts"), "--delay", String(delayMs)], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once("exit", (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hooks`,
    count: async () => ((await (await fetch(`${base}/count`)).json()) as { received: number }).received,
    waitFor: async (n) => void (await (await fetch(`${base}/wait?n=${n}`, { signal: AbortSignal.timeout(120_000) })).json()),
    stop: () => void child.kill(),
  };
}

type Sample = { start: number; end: number; ms: number };

/**
 * Row 2: a steady render stream (concurrency 2) with windows without deliveries and, between them,
 * bursts of `o.deliveries` deliveries queued at once to a receiver answering in 50 ms.
 */
async function deliveriesAgainstRenders(o: Options, renderOne: () => Promise<void>, workspaceId: string, receiver: ReceiverProcess): Promise<string[]> {
  const { sql } = await import("drizzle-orm");
  const { db } = await import("../lib/db/client");
  const [endpoint] = await db().execute<{ id: string }>(sql`select id from webhook_endpoints where workspace_id = ${workspaceId}`);
  const endpointId = endpoint!.id;
  const queue = async (round: number, n: number) => {
    const tag = `bench${round}_`;
    await db().execute(sql`
      insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, render_id, payload, status, next_attempt_at)
      select 'msg_' || ${tag} || i, ${workspaceId}, ${endpointId}, 'evt_' || ${tag} || i, 'render.succeeded', 'rnd_' || ${tag} || i,
        jsonb_build_object('id', 'evt_' || ${tag} || i, 'type', 'render.succeeded', 'createdAt', now(),
          'data', jsonb_build_object('renderId', 'rnd_' || ${tag} || i, 'status', 'succeeded', 'test', false)),
        'pending', now()
      from generate_series(1, ${n}::int) i`);
    await db().execute(sql`select pg_notify('folio_webhook_due', '')`);
  };
  const pendingLeft = async () => {
    const [r] = await db().execute<{ left: string }>(sql`select count(*) as left from webhook_deliveries where endpoint_id = ${endpointId} and status <> 'succeeded'`);
    return Number(r!.left);
  };
  const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

  // Warm-up: renders, and one delivery so the dispatcher and the pool have run once.
  await warm(10, 2, renderOne);
  await queue(0, 1);
  while ((await receiver.count()) < 1 || (await pendingLeft()) > 0) await sleep(50);

  const samples: Sample[] = [];
  let streaming = true;
  const lanes = Array.from({ length: 2 }, async () => {
    while (streaming) {
      const start = performance.now();
      await renderOne();
      const end = performance.now();
      samples.push({ start, end, ms: end - start });
    }
  });

  const quiet: [number, number][] = [];
  const busy: [number, number][] = [];
  const bursts: { receivedSeconds: number; recordedSeconds: number }[] = [];
  const windowMs = o.quick ? 5_000 : 15_000;
  const rounds = o.quick ? 1 : 3;
  const cpu = { quiet: {} as Record<string, number>, busy: {} as Record<string, number> };
  const account = (into: Record<string, number>, done: () => Record<string, number>) => {
    for (const [k, v] of Object.entries(done())) into[k] = (into[k] ?? 0) + v;
  };
  const window = async (into: [number, number][]) => {
    const t = performance.now();
    const done = measureCpu(o.cpuGroups);
    await sleep(windowMs);
    account(cpu.quiet, done);
    into.push([t, performance.now()]);
  };
  await sleep(2_000); // the stream settles
  await window(quiet);
  for (let round = 1; round <= rounds; round++) {
    const before = await receiver.count();
    const t = performance.now();
    const done = measureCpu(o.cpuGroups);
    await queue(round, o.deliveries);
    const receivedAt = await receiver.waitFor(before + o.deliveries).then(
      () => performance.now(),
      () => undefined, // not all within 120 s: the line below says how many
    );
    const deadline = t + 120_000;
    while (receivedAt !== undefined && (await pendingLeft()) > 0 && performance.now() < deadline) await sleep(100);
    const end = performance.now();
    account(cpu.busy, done);
    busy.push([t, end]);
    bursts.push({ receivedSeconds: ((receivedAt ?? end) - t) / 1000, recordedSeconds: (end - t) / 1000 });
    await window(quiet);
  }
  streaming = false;
  await Promise.all(lanes);

  /** The stream inside the windows: throughput by renders that ended in them, latency of those wholly in them. */
  const measure = (windows: [number, number][]) => {
    const seconds = windows.reduce((a, [s, e]) => a + (e - s) / 1000, 0);
    const ended = samples.filter((x) => windows.some(([s, e]) => x.end >= s && x.end < e)).length;
    const inside = samples.filter((x) => windows.some(([s, e]) => x.start >= s && x.end < e)).map((x) => x.ms);
    const st = stats(inside, seconds);
    return { ...st, perSecond: ended / seconds };
  };
  const q = measure(quiet);
  const b = measure(busy);
  const slowdown = Math.max(1 - b.perSecond / q.perSecond, b.p50 / q.p50 - 1);
  const received = (await receiver.count()) - 1;
  const worst = Math.max(...bursts.map((x) => x.recordedSeconds));
  return [
    `\n${o.deliveries} deliveries queued at once to a receiver answering in ${BURST_ANSWER_MS} ms, ${rounds} burst(s), against a steady stream of invoice renders (c=2, POST with waitMs):`,
    ...bursts.map((x, i) => `  burst ${i + 1}: all arrived after ${x.receivedSeconds.toFixed(2)} s, all recorded succeeded after ${x.recordedSeconds.toFixed(2)} s`),
    `  deliveries arrived: ${received} of ${rounds * o.deliveries}`,
    `  renders without deliveries in flight: ${q.perSecond.toFixed(2)} r/s, p50 ${q.p50.toFixed(1)} ms, p95 ${q.p95.toFixed(1)} ms (${q.n} renders in ${q.seconds.toFixed(1)} s)`,
    `  renders with deliveries in flight:    ${b.perSecond.toFixed(2)} r/s, p50 ${b.p50.toFixed(1)} ms, p95 ${b.p95.toFixed(1)} ms (${b.n} renders in ${b.seconds.toFixed(1)} s)`,
    `  CPU ms per second without deliveries: ${perSecondOf(cpu.quiet, q.seconds)}`,
    `  CPU ms per second with deliveries:    ${perSecondOf(cpu.busy, b.seconds)}`,
    `Targets: all delivered within 30 s: ${worst.toFixed(2)} s (the slowest burst); renders slowed by at most 10%: ` +
      `throughput ${signed(b.perSecond / q.perSecond - 1)}, p50 ${signed(b.p50 / q.p50 - 1)}: slowed by ${(Math.max(0, slowdown) * 100).toFixed(1)}% (the worse of the two)`,
  ];
}

const perSecondOf = (ms: Record<string, number>, seconds: number) =>
  Object.entries(ms)
    .map(([k, v]) => `${k} ${(v / seconds).toFixed(0)}`)
    .join("  ");

const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
