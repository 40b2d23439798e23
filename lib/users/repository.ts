import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { memberships, users, workspaces } from "../db/schema";

export async function insertUser(ex: Executor, row: typeof users.$inferInsert) {
  const [u] = await ex.insert(users).values(row).returning();
  return u!;
}

export async function findUserByEmail(ex: Executor, email: string) {
  const [u] = await ex.select().from(users).where(eq(users.email, email.toLowerCase()));
  return u;
}

export async function insertMembership(ex: Executor, row: typeof memberships.$inferInsert) {
  await ex.insert(memberships).values(row);
}

/** The user's role in the workspace with the workspace's suspension, or undefined if not a member. */
export async function findMembership(ex: Executor, userId: string, workspaceId: string) {
  const [m] = await ex
    .select({ role: memberships.role, platformAdmin: users.platformAdmin, suspended: workspaces.suspended })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)));
  return m;
}

/** The workspace a user lands in after sign-in: the first one they joined. */
export async function firstWorkspaceOf(ex: Executor, userId: string) {
  const [m] = await ex
    .select({ workspaceId: memberships.workspaceId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  return m?.workspaceId;
}

export async function findUserById(ex: Executor, id: string) {
  const [u] = await ex.select({ id: users.id, email: users.email, name: users.name, platformAdmin: users.platformAdmin }).from(users).where(eq(users.id, id));
  return u;
}

/** Every workspace the user belongs to, with their role there, in the order they joined. */
export async function listMembershipsOf(ex: Executor, userId: string) {
  return ex
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role, suspended: workspaces.suspended })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(workspaces.id));
}

/** Users with their memberships (only the workspace's when one is given), oldest first. */
export function listUsersWithMemberships(ex: Executor, workspaceId?: string) {
  const q = ex
    .select({ user: users, workspaceId: memberships.workspaceId, role: memberships.role })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id));
  return (workspaceId ? q.where(eq(memberships.workspaceId, workspaceId)) : q).orderBy(asc(users.createdAt), asc(users.id), asc(memberships.createdAt));
}

export async function setPasswordHash(ex: Executor, userId: string, passwordHash: string) {
  await ex.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}
