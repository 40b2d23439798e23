import { config, ConfigError } from "@/lib/config";
import { closeDb } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { boss, stopBoss } from "@/lib/jobs/boss";
import { queues } from "@/lib/jobs/catalog";
import { log } from "@/lib/log";
import { handleMaintenance } from "./jobs/maintenance";

/**
 * The worker: drains the pg-boss queues. Stops taking jobs on SIGTERM/SIGINT and lets running ones
 * finish within the grace period.
 */
async function main() {
  process.env.FOLIO_PROCESS ??= "worker";
  const cfg = config();
  await runMigrations(cfg.DATABASE_URL!);
  const b = await boss();
  await b.work("maintenance", async () => handleMaintenance());
  await b.schedule("maintenance", queues.maintenance.cron);
  log().info({ concurrency: cfg.WORKER_CONCURRENCY }, "worker started");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log().info({ signal }, "worker stopping");
    await stopBoss({ graceful: true, timeout: cfg.RENDER_TIMEOUT_MS + 10_000 });
    await closeDb();
    log().info("worker stopped");
    log().flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error("worker failed to start:", err);
  process.exit(1);
});
