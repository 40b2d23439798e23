import { sql } from "drizzle-orm";
import { fromDrizzle, PgBoss } from "pg-boss";
import { config } from "../config";
import type { Tx } from "../db/client";
import { log } from "../log";
import { queues, type QueueName, type QueuePayload } from "./catalog";

const globalKey = Symbol.for("folio.boss");
const holder = globalThis as unknown as { [globalKey]?: Promise<PgBoss> };

/** The process's pg-boss, started once (its schema is created or migrated on first start). */
export function boss(): Promise<PgBoss> {
  holder[globalKey] ??= (async () => {
    const worker = config().FOLIO_PROCESS === "worker";
    // why: web nodes only send jobs; supervising, cron and listening for jobs are the workers' part.
    const b = new PgBoss({
      connectionString: config().DATABASE_URL!,
      schema: "pgboss",
      max: worker ? 6 : 3,
      useListenNotify: worker,
      supervise: worker,
      schedule: worker,
    });
    b.on("error", (err) => log().error({ err }, "pg-boss error"));
    await b.start();
    for (const [name, q] of Object.entries(queues)) await b.createQueue(name, q.options());
    return b;
  })();
  return holder[globalKey];
}

export async function stopBoss(options: { graceful: boolean; timeout: number }) {
  const b = holder[globalKey];
  holder[globalKey] = undefined;
  if (b) await (await b).stop({ ...options, close: true });
}

/** Enqueues in the caller's transaction: the job exists only if the row it concerns commits. */
export async function enqueue<Q extends QueueName>(tx: Tx, name: Q, payload: QueuePayload<Q>, options: { singletonKey?: string } = {}) {
  const data = queues[name].payload.parse(payload);
  return (await boss()).send(name, data, { ...options, db: fromDrizzle(tx, sql) });
}

/**
 * Enqueues many jobs of one queue in the caller's transaction (one statement), each with its own
 * group (pg-boss limits how many of a group run at once).
 */
export async function enqueueMany<Q extends QueueName>(tx: Tx, name: Q, jobs: { data: QueuePayload<Q>; group?: { id: string } }[]) {
  if (jobs.length === 0) return;
  const rows = jobs.map((j) => ({ data: queues[name].payload.parse(j.data), ...(j.group ? { group: j.group } : {}), ...queues[name].options() }));
  await (await boss()).insert(name, rows, { db: fromDrizzle(tx, sql) });
}
