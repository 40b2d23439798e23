import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "../db/client";
import { apiKeys, workspaces, type ApiKeyRow } from "../db/schema";

export async function insertKey(ex: Executor, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [r] = await ex.insert(apiKeys).values(row).returning();
  return r!;
}

export function listKeys(ex: Executor, workspaceId: string): Promise<ApiKeyRow[]> {
  return ex.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findKey(ex: Executor, workspaceId: string, id: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id)));
  const [r] = await (opts.forUpdate ? q.for("update") : q);
  return r;
}

export async function updateKey(ex: Executor, id: string, set: Partial<typeof apiKeys.$inferInsert>) {
  const [r] = await ex.update(apiKeys).set(set).where(eq(apiKeys.id, id)).returning();
  return r!;
}

export async function deleteKey(ex: Executor, id: string) {
  await ex.delete(apiKeys).where(eq(apiKeys.id, id));
}

/** The key behind a secret with its workspace's suspension, in one round trip. */
export async function findKeyBySecretHash(ex: Executor, secretHash: string) {
  const [r] = await ex
    .select({
      id: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      suspended: workspaces.suspended,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.secretHash, secretHash));
  return r;
}

export function findServerKey(ex: Executor, workspaceId: string) {
  return ex
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.setByServer, true), isNull(apiKeys.rotatedAt)))
    .then((r) => r[0]);
}

export async function touchKey(ex: Executor, id: string, at: Date) {
  await ex.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}

/** The workspace a key belongs to, whichever it is: for platform administration (the admin CLI) only. */
export async function findKeyWorkspaceId(ex: Executor, id: string): Promise<string | undefined> {
  const [r] = await ex.select({ workspaceId: apiKeys.workspaceId }).from(apiKeys).where(eq(apiKeys.id, id));
  return r?.workspaceId;
}
