import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { config } from "../config";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that runs queries: the pool or an open transaction. */
export type Executor = Db | Tx;

type Handle = { db: Db; sql: postgres.Sql };
const globalKey = Symbol.for("folio.db");
const holder = globalThis as unknown as { [globalKey]?: Handle };

/** The process-wide pool. DATABASE_URL is set by the start commands, also for the embedded database. */
export function db(): Db {
  return handle().db;
}

export function rawSql(): postgres.Sql {
  return handle().sql;
}

function handle(): Handle {
  // why: Next.js may load this module in several bundles of one process; they share one pool.
  let h = holder[globalKey];
  if (!h) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set; start Folio with `npm start` or `npm run quickstart`, which set it");
    const sql = postgres(url, { max: 10, onnotice: () => {}, connection: { application_name: "folio" } });
    h = { sql, db: drizzle({ client: sql, schema }) };
    holder[globalKey] = h;
  }
  return h;
}

export async function closeDb() {
  const h = holder[globalKey];
  holder[globalKey] = undefined;
  await h?.sql.end({ timeout: 5 });
}

/** Runs fn in a transaction on the pool, or inside the given one. */
export function withTx<T>(fn: (tx: Tx) => Promise<T>, executor: Executor = db()): Promise<T> {
  return executor.transaction(fn);
}
