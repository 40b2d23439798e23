import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Executor } from "../db/client";
import { invitations, memberships, passwordResetTokens, users, type Role } from "../db/schema";

/**
 * Serializes every change to a workspace's people (roles, removals, invitations, acceptances)
 * until the transaction ends. why: "a workspace always keeps one owner" is a rule over several
 * rows; two owners demoting each other at once must not both see the other still an owner.
 * An advisory lock does not touch the workspace row, which renders reference (key-share locks).
 */
export async function lockPeople(ex: Executor, workspaceId: string) {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`people:${workspaceId}`}, 0))`);
}

export function listMembers(ex: Executor, workspaceId: string) {
  return ex
    .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(memberships.createdAt), asc(users.id));
}

export async function findMember(ex: Executor, workspaceId: string, userId: string) {
  const [m] = await ex
    .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
  return m;
}

export async function countOwners(ex: Executor, workspaceId: string): Promise<number> {
  const [r] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, "owner")));
  return r?.n ?? 0;
}

export async function updateRole(ex: Executor, workspaceId: string, userId: string, role: Role) {
  await ex.update(memberships).set({ role }).where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
}

export async function deleteMembership(ex: Executor, workspaceId: string, userId: string) {
  await ex.delete(memberships).where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
}

const inviter = alias(users, "inviter");

/** Invitations neither accepted nor cancelled (pending or expired), newest first, with the inviter. */
export function listOpenInvitations(ex: Executor, workspaceId: string) {
  return ex
    .select({ invitation: invitations, inviterName: inviter.name, inviterEmail: inviter.email })
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedByUserId))
    .where(and(eq(invitations.workspaceId, workspaceId), isNull(invitations.acceptedAt), isNull(invitations.cancelledAt)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

export async function findOpenInvitationByEmail(ex: Executor, workspaceId: string, email: string) {
  const [r] = await ex
    .select()
    .from(invitations)
    .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.cancelledAt)))
    .for("update");
  return r;
}

export async function findInvitation(ex: Executor, workspaceId: string, id: string) {
  const [r] = await ex.select().from(invitations).where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.id, id))).for("update");
  return r;
}

export async function findInvitationByTokenHash(ex: Executor, tokenHash: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
  const [r] = await (opts.forUpdate ? q.for("update") : q);
  return r;
}

export async function insertInvitation(ex: Executor, row: typeof invitations.$inferInsert) {
  const [r] = await ex.insert(invitations).values(row).returning();
  return r!;
}

export async function updateInvitation(ex: Executor, id: string, set: Partial<typeof invitations.$inferInsert>) {
  const [r] = await ex.update(invitations).set(set).where(eq(invitations.id, id)).returning();
  return r!;
}

export async function findUserById(ex: Executor, id: string) {
  const [u] = await ex.select().from(users).where(eq(users.id, id));
  return u;
}

export async function updateUser(ex: Executor, id: string, set: Partial<Pick<typeof users.$inferInsert, "name" | "passwordHash">>) {
  await ex.update(users).set({ ...set, updatedAt: new Date() }).where(eq(users.id, id));
}

export function workspacesOf(ex: Executor, userId: string) {
  return ex.select({ workspaceId: memberships.workspaceId }).from(memberships).where(eq(memberships.userId, userId));
}

export async function insertResetToken(ex: Executor, row: typeof passwordResetTokens.$inferInsert) {
  await ex.insert(passwordResetTokens).values(row);
}

export async function findResetToken(ex: Executor, tokenHash: string, opts: { forUpdate?: boolean } = {}) {
  const q = ex.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, tokenHash));
  const [r] = await (opts.forUpdate ? q.for("update") : q);
  return r;
}

/** Marks every unused reset link of the user used: a new password ends them all. */
export async function useResetTokens(ex: Executor, userId: string, at: Date) {
  await ex
    .update(passwordResetTokens)
    .set({ usedAt: at })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
