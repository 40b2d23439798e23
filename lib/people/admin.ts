/**
 * Platform administration of people (the admin CLI, decisions.md: Bootstrap and platform
 * administration): across workspaces, so these verbs take no workspace ctx. Every change is
 * audited in each workspace the person belongs to, as the CLI's system actor.
 */
import { randomBytes } from "node:crypto";
import { recordAudit } from "../audit";
import { systemCtx } from "../auth/context";
import { db, withTx } from "../db/client";
import type { Role } from "../db/schema";
import { AppError } from "../errors";
import { log } from "../log";
import { Email } from "../email";
import { hashPassword } from "../users/password";
import * as repo from "../users/repository";
import * as people from "./repository";

export type UserListing = {
  id: string;
  email: string;
  name?: string;
  platformAdmin: boolean;
  createdAt: string;
  memberships: { workspaceId: string; role: Role }[];
};

/** Every person, or the members of one workspace (with only that membership), oldest first. */
export async function listUsers(filter: { workspaceId?: string } = {}): Promise<{ items: UserListing[] }> {
  const rows = await repo.listUsersWithMemberships(db(), filter.workspaceId);
  const byId = new Map<string, UserListing>();
  for (const { user, workspaceId, role } of rows) {
    let u = byId.get(user.id);
    if (!u) {
      u = { id: user.id, email: user.email, platformAdmin: user.platformAdmin, createdAt: user.createdAt.toISOString(), memberships: [] };
      if (user.name) u.name = user.name;
      byId.set(user.id, u);
    }
    if (workspaceId && role) u.memberships.push({ workspaceId, role });
  }
  return { items: [...byId.values()] };
}

/**
 * Gives the person with `email` a new generated password and returns it, the only time it is
 * shown; the old password stops working at once, and every console session of the person ends
 * (each on its next request). Audited as `user.reset_password` (without the
 * password) in each of the person's workspaces.
 */
export async function resetPassword(job: string, email: string): Promise<{ email: string; password: string }> {
  const address = Email.parse(email).toLowerCase();
  const password = randomBytes(15).toString("base64url");
  const passwordHash = await hashPassword(password);
  await withTx(async (tx) => {
    const user = await repo.findUserByEmail(tx, address);
    if (!user) throw new AppError("NOT_FOUND", `No user with email ${address}`);
    await repo.setPasswordHash(tx, user.id, passwordHash);
    // why: as with a reset by link, a new password ends every "forgot password" link still unused.
    await people.useResetTokens(tx, user.id, new Date());
    await repo.endSessions(tx, user.id, null);
    const workspaceIds = (await repo.listMembershipsOf(tx, user.id)).map((m) => m.id);
    for (const workspaceId of workspaceIds) {
      await recordAudit(tx, systemCtx(workspaceId, job), "user.reset_password", { type: "user", id: user.id }, { email: address });
    }
    // why: the audit log is per workspace; a person in none still leaves a trace.
    if (workspaceIds.length === 0) log().info({ userId: user.id, job }, "password reset for a user without a workspace");
  });
  return { email: address, password };
}
