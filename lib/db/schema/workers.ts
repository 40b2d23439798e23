import { boolean, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * How each running worker contains its browser and helpers (lib/workers): written by the worker at
 * start and every minute, removed at its stop; the console's platform page warns of any short of
 * the full containment (docs/architecture.md, Threat model).
 */
export const workerContainment = pgTable("worker_containment", {
  /** host:pid of the worker process. */
  id: text("id").primaryKey(),
  sandbox: boolean("sandbox").notNull(),
  separateUser: boolean("separate_user").notNull(),
  dumpable: boolean("dumpable").notNull(),
  /** What the worker's readiness details say, in its words. */
  warnings: jsonb("warnings").$type<string[]>().notNull(),
  seenAt: ts("seen_at").notNull().defaultNow(),
});

export type WorkerContainmentRow = typeof workerContainment.$inferSelect;
