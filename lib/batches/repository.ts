import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { batches, renders, type BatchRow } from "../db/schema";

export async function insertBatch(ex: Executor, row: { id: string; workspaceId: string; itemCount: number; requestId?: string }): Promise<BatchRow> {
  const [r] = await ex.insert(batches).values(row).returning();
  return r!;
}

/** The workspace's batch; undefined for unknown ids and other workspaces' ids alike. */
export async function findBatch(ex: Executor, workspaceId: string, id: string): Promise<BatchRow | undefined> {
  const [r] = await ex.select().from(batches).where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, id)));
  return r;
}

/** The batch's items still kept (retention deletes renders), in request order. */
export function listItems(ex: Executor, workspaceId: string, batchId: string) {
  return ex
    .select()
    .from(renders)
    .where(and(eq(renders.workspaceId, workspaceId), eq(renders.batchId, batchId)))
    .orderBy(asc(renders.batchIndex));
}
