import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { olderThan } from "../db/paging";
import { renders, type RenderRow } from "../db/schema";
import type { Cursor } from "../paging";

export async function findRender(ex: Executor, workspaceId: string, id: string): Promise<RenderRow | undefined> {
  const [r] = await ex.select().from(renders).where(and(eq(renders.workspaceId, workspaceId), eq(renders.id, id)));
  return r;
}

export function listRenders(ex: Executor, workspaceId: string, limit: number, cursor?: Cursor) {
  return ex
    .select()
    .from(renders)
    .where(and(eq(renders.workspaceId, workspaceId), olderThan(renders.createdAt, renders.id, cursor)))
    .orderBy(desc(renders.createdAt), desc(renders.id))
    .limit(limit + 1);
}

export async function renewLeases(ex: Executor, ids: string[], leaseMs: number) {
  if (ids.length === 0) return;
  await ex
    .update(renders)
    .set({ leaseExpiresAt: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where(and(inArray(renders.id, ids), eq(renders.state, "processing")));
}

/** Processing renders whose worker stopped renewing the lease, locked for the caller's transaction. */
export function lockExpiredLeases(ex: Executor, limit: number) {
  return ex
    .select()
    .from(renders)
    .where(and(eq(renders.state, "processing"), lt(renders.leaseExpiresAt, sql`now()`)))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Renders created before the cutoff, oldest first, for retention. */
export function oldRenders(ex: Executor, cutoff: Date, limit: number) {
  return ex
    .select({ id: renders.id, fileKey: renders.fileKey })
    .from(renders)
    .where(lt(renders.createdAt, cutoff))
    .orderBy(renders.createdAt)
    .limit(limit);
}

export async function deleteRenders(ex: Executor, ids: string[]) {
  if (ids.length) await ex.delete(renders).where(inArray(renders.id, ids));
}
