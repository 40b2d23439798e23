import path from "node:path";
import { config } from "../config";
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";

/**
 * The database the project's commands act on: DATABASE_URL, or the embedded cluster under
 * DATA_DIR/postgres, started if it is not running. Migrations are applied either way.
 * Sets DATABASE_URL for this process and the processes it starts.
 */
export async function openDatabase(): Promise<{ url: string; embedded?: EmbeddedPostgres }> {
  const cfg = config();
  let embedded: EmbeddedPostgres | undefined;
  let url = cfg.DATABASE_URL;
  if (!url) {
    embedded = await ensureEmbeddedPostgres({ dir: path.join(cfg.DATA_DIR, "postgres") });
    url = embedded.url;
    process.env.DATABASE_URL = url;
    cfg.DATABASE_URL = url;
  }
  await runMigrations(url);
  return { url, embedded };
}
