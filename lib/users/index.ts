import { recordAudit } from "../audit";
import type { Ctx } from "../auth/context";
import { withTx, db } from "../db/client";
import { newId } from "../db/ids";
import { conflict } from "../errors";
import { hashPassword } from "./password";
import { checkAccountPassword } from "./password-attempts";
import * as repo from "./repository";
import { CreateUserInput, type User } from "./schemas";

export { findMembership, findSessionState, findUserById, firstWorkspaceOf, listMembershipsOf } from "./repository";
export { CreateUserInput, type User } from "./schemas";
export { checkAccountPassword, prunePasswordFailures, PASSWORD_FAILURES_PER_WINDOW, PASSWORD_FAILURE_WINDOW_MS } from "./password-attempts";

/** Creates a person with a password and makes them a member of ctx's workspace with the given role. */
export async function createUser(ctx: Ctx, input: CreateUserInput): Promise<User> {
  const v = CreateUserInput.parse(input);
  const passwordHash = await hashPassword(v.password);
  return withTx(async (tx) => {
    const email = v.email.toLowerCase();
    if (await repo.findUserByEmail(tx, email)) throw conflict(`A user with email ${email} already exists`);
    const user = await repo.insertUser(tx, { id: newId("usr"), email, name: v.name, passwordHash, platformAdmin: v.platformAdmin });
    await repo.insertMembership(tx, { workspaceId: ctx.workspaceId, userId: user.id, role: v.role });
    await recordAudit(tx, ctx, "user.create", { type: "user", id: user.id }, { email, role: v.role, platformAdmin: v.platformAdmin });
    const out: User = { id: user.id, email, platformAdmin: user.platformAdmin, workspaceId: ctx.workspaceId, role: v.role };
    if (user.name) out.name = user.name;
    return out;
  });
}

/**
 * The user for an email and password tried from `from` (the client address's bucket), or
 * undefined; the same work is done for unknown emails. Counts against the limit on wrong passwords
 * per account and address (lib/users/password-attempts.ts): past it, throws 429 RATE_LIMITED
 * whatever the password.
 */
export async function verifyCredentials(email: string, password: string, from: string) {
  const user = await repo.findUserByEmail(db(), email);
  // why: hash even when the user is unknown, so timing does not tell which emails exist.
  const ok = await checkAccountPassword(email, password, user?.passwordHash ?? "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", from);
  return ok && user ? user : undefined;
}
