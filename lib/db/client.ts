import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { config } from "../config";
import { log } from "../log";
import * as schema from "./schema";
import { databaseWatchdog, type Watchdog } from "./watchdog";

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
    const seconds = config().DATABASE_CONNECT_TIMEOUT_SECONDS;
    // why: statement_timeout is the server's; a server that stopped running applies none (lib/db/watchdog.ts).
    const watchdog = databaseWatchdog({
      url,
      seconds,
      onDropped: (info) => log().warn(info, "the database does not answer: its connections were dropped"),
    });
    const sql = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: seconds, connection: connectionSettings(), socket: watchdog.socket } as postgres.Options<Record<string, never>>);
    h = { sql, db: drizzle({ client: preparing(sql, watchdog), schema }) };
    holder[globalKey] = h;
  }
  return h;
}

/**
 * Session settings of the process's connections: a statement time-out; the worker commits asynchronously.
 *
 * why: on the render path the worker's statements (claim, end, lease renewal) waited for the WAL
 * flush at every commit, the largest part of the service's own latency per render (5 of about 11
 * ms at concurrency 1 here). Everything the worker writes may be lost in a PostgreSQL crash (not a
 * Folio one) and done again: a lost claim leaves the render queued; a lost end leaves it processing
 * until its lease expires, when it is rendered again into a file of its own and ends once, counted
 * once; lost retention or maintenance runs again. What a caller is promised (a render created, a
 * cancel) is written by the web process, which keeps synchronous commits.
 */
function connectionSettings(): Record<string, string> {
  return {
    application_name: "folio",
    // why: a statement the database cannot finish (a stuck or overloaded server) fails, and its
    // request answers 503 (lib/db/unavailable.ts), instead of holding a pool connection for good.
    // The default is above the longest wait of real work: a workspace's storage lock held while
    // an upload of a large file is stored (lib/assets/upload.ts).
    statement_timeout: String(config().DATABASE_STATEMENT_TIMEOUT_MS),
    ...(config().FOLIO_PROCESS === "worker" ? { synchronous_commit: "off" } : {}),
  };
}

/**
 * The client as drizzle sees it, with every query prepared.
 *
 * why: drizzle runs each query through `unsafe(text, params, { prepare: false })`, and postgres.js
 * then asks the server to describe every parameterized statement before it runs it: two round
 * trips, two wake-ups of the server and of this process, and a fresh plan, per query. A prepared
 * statement costs that once per connection and then one round trip, with a cached plan. The
 * number of distinct statements is bounded by the code (connections are recycled anyway).
 * Transactions and savepoints hand drizzle their own client, which gets the same treatment.
 *
 * Every wait for the server's answer is shown to the watchdog: each query, and a transaction's (or
 * savepoint's) opening statement and its commit (or rollback), but not the caller's work between.
 */
function preparing<T extends postgres.Sql | postgres.TransactionSql>(client: T, watchdog: Watchdog): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "unsafe") {
        return (text: string, params?: unknown[], options?: { prepare?: boolean }) => {
          const query = target.unsafe(text, params as postgres.ParameterOrJSON<never>[], { ...options, prepare: true });
          watchdog.track(query);
          return query;
        };
      }
      if (prop === "begin" || prop === "savepoint") {
        const open = Reflect.get(target, prop, receiver) as (...a: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: postgres.TransactionSql) => unknown;
          let end = watchdog.wait();
          const done = open.call(target, ...args, async (tx: postgres.TransactionSql) => {
            end();
            try {
              return await fn(preparing(tx, watchdog));
            } finally {
              end = watchdog.wait();
            }
          });
          void done.then(() => end(), () => end());
          return done;
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
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
