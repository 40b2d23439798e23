import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { memberships, passwordFailures, users, workspaces } from "../db/schema";

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

/** What a console session is checked against on every request (lib/sessions). */
export async function findSessionState(ex: Executor, userId: string) {
  const [u] = await ex.select({ epoch: users.sessionEpoch, keptId: users.sessionKeptId }).from(users).where(eq(users.id, userId));
  return u;
}

/** Ends every console session of the user but `keepSessionId` (when given), by raising the epoch they carry. */
export async function endSessions(ex: Executor, userId: string, keepSessionId: string | null) {
  await ex
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1`, sessionKeptId: keepSessionId, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Whose password checks are counted together: an account (digest) from a client address (digest). */
export type PasswordCheckKey = { account: string; address: string };

/**
 * Counts one password check of an account from an address in its window (a new window starts
 * when the last one ended) and answers the count so far, this one included, and the window's start.
 */
export async function countPasswordCheck(ex: Executor, key: PasswordCheckKey, now: Date, windowMs: number) {
  const open = sql`${passwordFailures.windowStart} > ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const [row] = await ex
    .insert(passwordFailures)
    .values({ ...key, windowStart: now, failures: 1 })
    .onConflictDoUpdate({
      target: [passwordFailures.account, passwordFailures.address],
      // why both from the old row: Postgres evaluates every SET expression against the row before the update.
      set: {
        failures: sql`case when ${open} then ${passwordFailures.failures} + 1 else 1 end`,
        windowStart: sql`case when ${open} then ${passwordFailures.windowStart} else excluded.window_start end`,
      },
    })
    .returning({ failures: passwordFailures.failures, windowStart: passwordFailures.windowStart });
  return row!;
}

/** Takes back a check counted by countPasswordCheck that succeeded (if its window is still the one counted). */
export async function uncountPasswordCheck(ex: Executor, key: PasswordCheckKey, windowStart: Date) {
  await ex
    .update(passwordFailures)
    .set({ failures: sql`greatest(${passwordFailures.failures} - 1, 0)` })
    .where(and(eq(passwordFailures.account, key.account), eq(passwordFailures.address, key.address), eq(passwordFailures.windowStart, windowStart)));
}

/** Forgets the counts whose window ended before `before`. */
export async function prunePasswordFailures(ex: Executor, before: Date) {
  await ex.delete(passwordFailures).where(sql`${passwordFailures.windowStart} < ${before.toISOString()}::timestamptz`);
}
