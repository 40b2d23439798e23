import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

// why: any fixed number; every process that migrates takes the same lock, so only one migrates at a time.
const MIGRATION_LOCK = 7_046_311;

/** Applies the committed drizzle/ migrations under an advisory lock. Safe to call from every process. */
export async function runMigrations(url: string, migrationsFolder = path.join(process.cwd(), "drizzle")) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle({ client: sql }), { migrationsFolder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
