import http from "node:http";
import { flushCompileCache } from "node:module";
import { config, ConfigError } from "@/lib/config";
import { checkDatabase, readiness } from "@/lib/instance";
import { closeDb } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { boss, stopBoss } from "@/lib/jobs/boss";
import { queues, type QueuePayload } from "@/lib/jobs/catalog";
import { drain } from "@/lib/jobs/drain";
import { flushLogs, log, sanitizeConsole } from "@/lib/log";
import { BrowserPool } from "@/lib/render-engine/browser";
import { closeRenderHelpers, warmRenderHelpers } from "@/lib/render-engine/helpers";
import { renderUser } from "@/lib/processes/launch";
import { becomeNonDumpable, containmentWarnings, DUMPABLE_MESSAGE, protectDataDir, requireSeparateUser } from "@/lib/render-engine/containment";
import { forgetWorker, REPORT_EVERY_MS, reportContainment } from "@/lib/workers";
import { leaseMs, reapAbandonedRenders, renewLeases, settleUploads, watchCancellations } from "@/lib/renders/processing";
import { RENDER_QUEUED_CHANNEL, rendering } from "@/lib/renders/processing";
import { handleBlobDeletion } from "./jobs/blob-deletion";
import { handleFileDeletion } from "./jobs/file-deletion";
import { handleMaintenance } from "./jobs/maintenance";
import { handleNextRender } from "./jobs/render";
import { handleRetention } from "./jobs/retention";
import { webhookDeliveryPool } from "./jobs/webhook-delivery";
import { coalescedDispatcher, onDeliveriesDue } from "@/lib/webhooks/dispatch";

/** How many webhook attempts one worker runs at once (outbound HTTP waits, not CPU). */
const WEBHOOK_SLOTS = 32;
/** How many attempts of one webhook endpoint run at once, across all workers. */
const WEBHOOK_PER_ENDPOINT = 16;
/**
 * How many webhook attempts may start per second while this worker renders (or rendered within
 * the last second): deliveries yield to renders. 1,000 queued at once still go out within about
 * 20 s beside a steady render stream (bench/delivery.ts), and at once on an idle worker.
 */
const WEBHOOK_STARTS_PER_SECOND_WHILE_RENDERING = 50;

/**
 * The worker: a warm Chromium and the pg-boss queues. Stops taking jobs on SIGTERM/SIGINT and
 * lets running renders finish within the render time limit.
 */
async function main() {
  // why first: nothing of the worker's (its environment above all) may be readable through /proc
  // by a process of its own user, and a worker that is not root re-executes itself for that.
  const nonDumpable = becomeNonDumpable();
  process.env.FOLIO_PROCESS ??= "worker";
  sanitizeConsole();
  const cfg = config();
  surviveUnhandledRejections();
  // RENDERER_REQUIRE_SANDBOX: a worker that cannot give its browser a user of its own stops here.
  requireSeparateUser(renderUser());
  await runMigrations(cfg.DATABASE_URL!);
  protectDataDir();
  const pool = new BrowserPool(cfg.WORKER_CONCURRENCY);
  // why: a stop asked for while the browser launches must still close it and the helpers (and with them
  // their folders in the temporary directory); Node's default would end the process on the spot.
  let stopAsked = false;
  const stopWhileStarting = (signal: string) => {
    stopAsked = true;
    log().info({ signal }, "worker stopping while it starts");
    void Promise.all([pool.close(), closeRenderHelpers()]).finally(() => {
      flushLogs();
      process.exit(0);
    });
  };
  process.once("SIGTERM", stopWhileStarting).once("SIGINT", stopWhileStarting);
  // The font and PDF helpers start beside the browser, so the first render waits for neither.
  await Promise.all([pool.start(), warmRenderHelpers()]).catch((err) => {
    // why: closing the browser fails its launch; the stop under way ends the process, with 0.
    if (stopAsked) return new Promise<never>(() => {});
    throw err;
  });
  await watchCancellations();

  const b = await boss();
  const renders = await drain({ name: "render", channel: RENDER_QUEUED_CHANNEL, concurrency: cfg.WORKER_CONCURRENCY, next: (running) => handleNextRender(pool, running) });
  await b.work("maintenance", async () => handleMaintenance());
  await b.work("retention", async () => handleRetention());
  await b.work<QueuePayload<"file-deletion">>("file-deletion", async (jobs) => {
    for (const job of jobs) await handleFileDeletion(job.data);
  });
  await b.work<QueuePayload<"blob-deletion">>("blob-deletion", async (jobs) => {
    for (const job of jobs) await handleBlobDeletion(job.data);
  });
  // Webhook deliveries: the dispatcher hands due attempts to pg-boss (lib/webhooks/dispatch.ts),
  // the pool runs them: at most WEBHOOK_PER_ENDPOINT of one endpoint at once across all workers,
  // so one slow receiver holds few slots and never a render's.
  const webhookPool = webhookDeliveryPool(b, {
    slots: WEBHOOK_SLOTS,
    perEndpoint: WEBHOOK_PER_ENDPOINT,
    startsPerSecond: () => (rendering(1_000) ? WEBHOOK_STARTS_PER_SECOND_WHILE_RENDERING : undefined),
  });
  const webhookDispatcher = coalescedDispatcher(webhookPool.wake, (err) => log().error({ err }, "webhook dispatch failed"));
  await onDeliveriesDue(webhookDispatcher.wake);
  webhookDispatcher.wake();
  await b.schedule("maintenance", queues.maintenance.cron);
  await b.schedule("retention", queues.retention.cron);

  const every = (ms: number, fn: () => Promise<unknown>, what: string) =>
    setInterval(() => void fn().catch((err) => log().error({ err }, `${what} failed`)), ms);
  // The platform page's view of this worker's containment (lib/workers).
  const report = () => reportContainment(containmentReport(pool, nonDumpable));
  await report().catch((err) => log().error({ err }, "containment report failed"));
  const timers = [
    every(REPORT_EVERY_MS, report, "containment report"),
    every(leaseMs() / 3, renewLeases, "lease renewal"),
    // A third of the lease, at most 5 s: an abandoned render waits at most that long past its lease.
    every(Math.min(5_000, leaseMs() / 3), reapAbandonedRenders, "abandoned render check"),
    setInterval(webhookDispatcher.wake, 2_000),
  ];
  const health = cfg.WORKER_HEALTH_PORT ? serveHealth(cfg.WORKER_HEALTH_PORT, cfg.WORKER_HEALTH_HOST, pool, nonDumpable) : undefined;
  log().info({ concurrency: cfg.WORKER_CONCURRENCY, browser: pool.containment, dumpable: !nonDumpable }, "worker started");
  // why now: the compile cache (scripts/build-server.mjs) is written at exit otherwise, which a killed worker never reaches.
  flushCompileCache();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log().info({ signal }, "worker stopping");
    // Running renders may finish within their time limit; whatever hangs after that is cut short.
    setTimeout(() => {
      log().error("worker did not stop in time; exiting");
      flushLogs();
      process.exit(1);
    }, cfg.RENDER_TIMEOUT_MS + 15_000).unref();
    webhookDispatcher.stop(); // pg-boss stops below; due deliveries wait for the next worker
    await Promise.all([renders.stop().then(settleUploads), webhookPool.stop()]); // lets running renders, their uploads and attempts finish
    await stopBoss({ graceful: true, timeout: cfg.RENDER_TIMEOUT_MS + 10_000 });
    timers.forEach(clearInterval);
    health?.close();
    await Promise.all([pool.close(), closeRenderHelpers(), forgetWorker().catch((err) => log().error({ err }, "containment report not removed"))]);
    await closeDb();
    log().info("worker stopped");
    flushLogs();
    process.exit(0);
  };
  process.off("SIGTERM", stopWhileStarting).off("SIGINT", stopWhileStarting);
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/**
 * Logs a promise rejection nobody handled instead of exiting, Node's default. why: one stray
 * promise (a listener's callback, a timer's) must not end the renders in flight with it; the
 * leases, drain loops and health answers carry on, and the log says what to fix.
 */
function surviveUnhandledRejections() {
  process.on("unhandledRejection", (reason) => log().error({ err: reason }, "unhandled promise rejection"));
}

/** decisions.md: /healthz (process up) and /readyz (database reachable and, for a worker, browser launched). */
function serveHealth(port: number, host: string, pool: BrowserPool, nonDumpable: boolean) {
  const answer = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  return http
    .createServer(async (req, res) => {
      if (req.url === "/healthz") return answer(res, 200, { ok: true });
      if (req.url !== "/readyz") return void res.writeHead(404).end();
      const ready = readiness({ database: await checkDatabase(), browser: pool.ready ? "ok" : "not launched" });
      answer(res, ready.ok ? 200 : 503, { ...ready, ...containmentDetails(pool, nonDumpable) });
    })
    .listen(port, host);
}

/**
 * How the browser is contained, and the loud warnings when its sandbox is off or it shares the
 * worker's user (README, "Renderer sandbox").
 */
function containmentDetails(pool: BrowserPool, nonDumpable: boolean) {
  const c = pool.containment;
  if (!c) return {};
  const { warnings } = containmentReport(pool, nonDumpable);
  return {
    browser: { sandbox: c.sandbox, separateUser: c.separateUser, sandboxRequired: c.required, ...(c.user ? { user: c.user } : {}) },
    worker: { dumpable: !nonDumpable },
    ...(warnings.length ? { warnings } : {}),
  };
}

/** What this worker reports of its containment: its readiness details and the platform page's view. */
function containmentReport(pool: BrowserPool, nonDumpable: boolean) {
  const c = pool.containment ?? { sandbox: false, separateUser: false };
  const warnings = [...containmentWarnings(c), ...(nonDumpable ? [] : [DUMPABLE_MESSAGE])];
  return { sandbox: c.sandbox, separateUser: c.separateUser, dumpable: !nonDumpable, warnings };
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error("worker failed to start:", err);
  process.exit(1);
});
