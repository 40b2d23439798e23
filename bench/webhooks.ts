/**
 * npm run bench:webhooks: 1,000 webhook deliveries queued at once to one receiver on loopback that
 * answers each after 50 ms; prints how long until all are delivered (the issue asks: within 30 s on
 * the 2-core machine). Starts its own web server, worker and database (the test harness's), with
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS=true so the loopback receiver is allowed.
 *
 *   npm run bench:webhooks                  1,000 deliveries, 50 ms answers
 *   npm run bench:webhooks -- --n 200       another count
 *
 * Nothing renders meanwhile, so the worker's pool runs at full speed; `npm run bench -- --delivery`
 * (bench/delivery.ts) measures the same burst beside a steady render stream, where the pool limits
 * its starts, and how much it slows the renders.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { startTestServers } from "../lib/testing/global-setup";

const argv = process.argv.slice(2);
const n = Number(argv[argv.indexOf("--n") + 1]) || 1000;
const answerMs = 50;

async function main() {
  const servers = await startTestServers({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", LOG_LEVEL: "warn" });
  try {
    for (const [k, v] of Object.entries(servers.serverEnv)) process.env[k] = v;
    process.env.FOLIO_PROCESS = "test";
    process.env.LOG_LEVEL = "warn";
    const { db, closeDb } = await import("../lib/db/client");
    const { createWorkspace } = await import("../lib/workspaces");
    const { systemCtx } = await import("../lib/auth/context");
    const webhooks = await import("../lib/webhooks");

    let received = 0;
    let target = 1;
    let allReceived!: () => void;
    let done = new Promise<void>((resolve) => (allReceived = resolve));
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () =>
        setTimeout(() => {
          res.writeHead(204).end();
          if (++received === target) allReceived();
        }, answerMs),
      );
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    const w = await createWorkspace("bench", "Webhook bench");
    const endpoint = await webhooks.createEndpoint(systemCtx(w.id, "bench"), { url, eventTypes: ["render.succeeded"] });
    // why rows, not renders: this measures the delivery pipeline, not the renderer.
    const queue = async (from: number, to: number) => {
      await db().execute(sql`
        insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, render_id, payload, status, next_attempt_at)
        select 'msg_bench' || i, ${w.id}, ${endpoint.id}, 'evt_bench' || i, 'render.succeeded', 'rnd_bench' || i,
          jsonb_build_object('id', 'evt_bench' || i, 'type', 'render.succeeded', 'createdAt', now(), 'data', jsonb_build_object('renderId', 'rnd_bench' || i, 'status', 'succeeded', 'test', false)),
          'pending', now()
        from generate_series(${from}::int, ${to}::int) i`);
      await db().execute(sql`select pg_notify('folio_webhook_due', '')`);
    };
    // Warm-up: one delivery, so the worker is up (it starts with the web server, not waited for).
    await queue(0, 0);
    await done;
    received = 0;
    target = n;
    done = new Promise<void>((resolve) => (allReceived = resolve));
    const start = performance.now();
    await queue(1, n);
    const timeout = setTimeout(() => allReceived(), 120_000);
    await done;
    clearTimeout(timeout);
    const receivedSeconds = (performance.now() - start) / 1000;
    for (;;) {
      const [r] = await db().execute<{ left: string }>(sql`select count(*) as left from webhook_deliveries where endpoint_id = ${endpoint.id} and status <> 'succeeded'`);
      if (Number(r!.left) === 0) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const recordedSeconds = (performance.now() - start) / 1000;
    console.log(JSON.stringify({ deliveries: n, answerMs, received, receivedSeconds: +receivedSeconds.toFixed(2), allSucceededSeconds: +recordedSeconds.toFixed(2) }));
    receiver.close();
    await closeDb();
  } finally {
    await servers.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
