import fs from "node:fs";
import path from "node:path";

/**
 * A fresh, migrated database on the embedded cluster under `dataDir` for one bench run, and a
 * data folder of its own for the run's files; both are set in this process's environment and
 * returned for the processes it starts. `drop()` removes both and stops the cluster if this run
 * started it.
 */
export async function benchDatabase(dataDir: string, name: string) {
  const { ensureEmbeddedPostgres, createDatabase } = await import("../lib/db/embedded");
  const { runMigrations } = await import("../lib/db/migrate");
  fs.mkdirSync(dataDir, { recursive: true });
  const pg = await ensureEmbeddedPostgres({ dir: path.join(dataDir, "postgres"), database: "postgres" });
  const database = `folio_${name}_${Date.now()}`;
  await createDatabase(pg.url, database);
  const url = pg.url.replace(/\/postgres$/, `/${database}`);
  await runMigrations(url);
  process.env.DATABASE_URL = url;
  const runDir = path.join(dataDir, "runs", database);
  fs.mkdirSync(runDir, { recursive: true });
  process.env.DATA_DIR = runDir;
  const drop = async () => {
    fs.rmSync(runDir, { recursive: true, force: true });
    const { closeDb } = await import("../lib/db/client");
    await closeDb();
    const { default: postgres } = await import("postgres");
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists "${database}" with (force)`);
    await sql.end();
    if (pg.startedHere) pg.stop();
  };
  return { url, runDir, drop };
}
