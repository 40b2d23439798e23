import { and, asc, between, eq, gt, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { usageDays, workspaces } from "../db/schema";

const counters = {
  rendersSucceeded: sql<number>`sum(${usageDays.rendersSucceeded})::int`,
  rendersFailed: sql<number>`sum(${usageDays.rendersFailed})::int`,
  rendersCancelled: sql<number>`sum(${usageDays.rendersCancelled})::int`,
  pages: sql<number>`sum(${usageDays.pages})::bigint`,
  outputBytes: sql<number>`sum(${usageDays.outputBytes})::bigint`,
  testRenders: sql<number>`sum(${usageDays.testRenders})::int`,
  testPages: sql<number>`sum(${usageDays.testPages})::bigint`,
  stringRenders: sql<number>`sum(${usageDays.stringRenders})::int`,
  htmlPreviews: sql<number>`sum(${usageDays.htmlPreviews})::int`,
};

/** The workspace's usage rows of the days from..to (both included), oldest first; days without a row had no usage. */
export function usageDaysOf(ex: Executor, workspaceId: string, from: string, to: string) {
  return ex
    .select({
      date: usageDays.day,
      rendersSucceeded: usageDays.rendersSucceeded,
      rendersFailed: usageDays.rendersFailed,
      rendersCancelled: usageDays.rendersCancelled,
      pages: usageDays.pages,
      outputBytes: usageDays.outputBytes,
      testRenders: usageDays.testRenders,
      testPages: usageDays.testPages,
      stringRenders: usageDays.stringRenders,
      htmlPreviews: usageDays.htmlPreviews,
    })
    .from(usageDays)
    .where(and(eq(usageDays.workspaceId, workspaceId), between(usageDays.day, from, to)))
    .orderBy(asc(usageDays.day));
}

/** Workspaces with usage in from..to, by id after `afterId`, each with its totals (limit + 1 rows). */
export function usageByWorkspace(ex: Executor, from: string, to: string, limit: number, afterId?: string) {
  return ex
    .select({ workspaceId: usageDays.workspaceId, name: workspaces.name, suspended: workspaces.suspended, ...counters })
    .from(usageDays)
    .innerJoin(workspaces, eq(workspaces.id, usageDays.workspaceId))
    .where(and(between(usageDays.day, from, to), afterId === undefined ? undefined : gt(usageDays.workspaceId, afterId)))
    .groupBy(usageDays.workspaceId, workspaces.name, workspaces.suspended)
    .orderBy(asc(usageDays.workspaceId))
    .limit(limit + 1);
}

/** The totals in from..to of each of these workspaces that had usage then. */
export function usageOfWorkspaces(ex: Executor, ids: string[], from: string, to: string) {
  return ex
    .select({ workspaceId: usageDays.workspaceId, ...counters })
    .from(usageDays)
    .where(and(inArray(usageDays.workspaceId, ids), between(usageDays.day, from, to)))
    .groupBy(usageDays.workspaceId);
}

/** The usage counters that count answers rather than renders. */
export type AnswerCounter = "stringRenders" | "htmlPreviews";

/**
 * One more `counter` on the workspace's row of today (UTC, by the database's clock, as a render's
 * end is), created if it is the day's first usage.
 */
export function countAnswer(ex: Executor, workspaceId: string, counter: AnswerCounter) {
  return ex
    .insert(usageDays)
    .values({ workspaceId, day: sql`(now() at time zone 'UTC')::date`, [counter]: 1 })
    .onConflictDoUpdate({ target: [usageDays.workspaceId, usageDays.day], set: { [counter]: sql`${usageDays[counter]} + 1` } });
}
