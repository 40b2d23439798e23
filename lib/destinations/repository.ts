import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { renders, storageDestinations, type StorageDestinationRow } from "../db/schema";

export type { StorageDestinationRow };

/**
 * Serialises changes to one workspace's destinations (the count of 10 and unique names hold under
 * concurrent creates). An advisory lock, not a row lock on the workspace, which renders reference.
 */
export async function lockDestinations(ex: Executor, workspaceId: string) {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`destinations:${workspaceId}`}, 0))`);
}

export function listDestinations(ex: Executor, workspaceId: string): Promise<StorageDestinationRow[]> {
  return ex
    .select()
    .from(storageDestinations)
    .where(eq(storageDestinations.workspaceId, workspaceId))
    .orderBy(asc(sql`lower(${storageDestinations.name})`), asc(storageDestinations.id));
}

export async function countDestinations(ex: Executor, workspaceId: string): Promise<number> {
  const [r] = await ex.select({ n: count() }).from(storageDestinations).where(eq(storageDestinations.workspaceId, workspaceId));
  return r?.n ?? 0;
}

export async function findDestination(ex: Executor, workspaceId: string, id: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(storageDestinations).where(and(eq(storageDestinations.workspaceId, workspaceId), eq(storageDestinations.id, id)));
  const [r] = await (opts.forUpdate ? q.for("update") : q);
  return r;
}

/** The destination of that name, ignoring letter case (spec: names are unique ignoring case); `exceptId` skips one (a rename of itself). */
export async function findDestinationByName(ex: Executor, workspaceId: string, name: string, exceptId?: string) {
  const [r] = await ex
    .select()
    .from(storageDestinations)
    .where(
      and(
        eq(storageDestinations.workspaceId, workspaceId),
        sql`lower(${storageDestinations.name}) = lower(${name})`,
        exceptId ? ne(storageDestinations.id, exceptId) : undefined,
      ),
    );
  return r;
}

export async function insertDestination(ex: Executor, row: typeof storageDestinations.$inferInsert): Promise<StorageDestinationRow> {
  const [r] = await ex.insert(storageDestinations).values(row).returning();
  return r!;
}

export async function updateDestination(ex: Executor, id: string, set: Partial<typeof storageDestinations.$inferInsert>): Promise<StorageDestinationRow> {
  const [r] = await ex
    .update(storageDestinations)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(storageDestinations.id, id))
    .returning();
  return r!;
}

export async function deleteDestination(ex: Executor, id: string) {
  await ex.delete(storageDestinations).where(eq(storageDestinations.id, id));
}

/** Renders still queued for the destination (they fail when it is deleted). */
export async function queuedRendersOf(ex: Executor, workspaceId: string, destinationId: string): Promise<string[]> {
  const rows = await ex
    .select({ id: renders.id })
    .from(renders)
    .where(and(eq(renders.workspaceId, workspaceId), eq(renders.destinationId, destinationId), eq(renders.state, "queued")));
  return rows.map((r) => r.id);
}
