import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { inject } from "vitest";
import { newId } from "../db/ids";
import * as schema from "../db/schema";
import { copyDatabase } from "./global-setup";

export type PrivateDatabase = {
  url: string;
  client: postgres.Sql;
  db: ReturnType<typeof drizzle<typeof schema>>;
  /** A workspace made in it. */
  workspaceId: string;
  close: () => Promise<void>;
};

/**
 * A migrated database of its own on the test cluster, with one workspace. No worker runs there, so
 * rows stay exactly as a test leaves them (a queued render stays queued).
 */
export async function privateDatabase(label: string): Promise<PrivateDatabase> {
  const name = `folio_test_${Date.now()}_${label}${process.pid}`;
  const adminUrl = inject("adminUrl");
  await copyDatabase(adminUrl, inject("templateDatabase"), name);
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const client = postgres(url, { max: 2, onnotice: () => {} });
  const db = drizzle({ client, schema });
  const workspaceId = newId("ws");
  await db.insert(schema.workspaces).values({ id: workspaceId, name: label });
  return { url, client, db, workspaceId, close: () => client.end() };
}
