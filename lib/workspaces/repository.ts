import { asc, eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { workspaces, type WorkspaceRow } from "../db/schema";

export async function insertWorkspace(ex: Executor, row: typeof workspaces.$inferInsert) {
  const [w] = await ex.insert(workspaces).values(row).returning();
  return w!;
}

export function listWorkspaces(ex: Executor): Promise<WorkspaceRow[]> {
  return ex.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id));
}

export async function findWorkspace(ex: Executor, id: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(workspaces).where(eq(workspaces.id, id));
  const [w] = await (opts.forUpdate ? q.for("update") : q);
  return w;
}

export async function updateWorkspace(ex: Executor, id: string, set: Partial<typeof workspaces.$inferInsert>) {
  const [w] = await ex.update(workspaces).set({ ...set, updatedAt: new Date() }).where(eq(workspaces.id, id)).returning();
  return w!;
}
