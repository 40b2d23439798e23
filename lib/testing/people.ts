import { randomBytes } from "node:crypto";
import { systemCtx, type Ctx } from "../auth/context";
import { roleScopes } from "../auth/scopes";
import type { Role } from "../db/schema";
import { createUser } from "../users";
import { createWorkspace } from "../workspaces";

export type TestPerson = { userId: string; email: string; password: string; role: Role; ctx: Ctx };

/** A fresh workspace and a way to add people to it, each with the ctx the console would give them. */
export async function peopleWorkspace() {
  const w = await createWorkspace("test", `People ${randomBytes(3).toString("hex")}`);
  const system = systemCtx(w.id, "test");
  const add = async (role: Role, email = `${role}-${randomBytes(4).toString("hex")}@folio.test`): Promise<TestPerson> => {
    const password = `pw-${randomBytes(8).toString("hex")}`;
    const u = await createUser(system, { email, password, role });
    return { userId: u.id, email, password, role, ctx: personCtx(w.id, u.id, role) };
  };
  return { id: w.id, name: w.name, system, add };
}

export const personCtx = (workspaceId: string, userId: string, role: Role): Ctx => ({
  workspaceId,
  actor: { type: "user", userId, scopes: roleScopes[role], platformAdmin: false },
});

export const newEmail = (label = "invitee") => `${label}-${randomBytes(4).toString("hex")}@folio.test`;

/**
 * A client address's bucket for the verbs that check a password (sign-in, accepting an
 * invitation, changing a password): wrong passwords count per account and address.
 */
export const FROM_ADDRESS = "192.0.2.10";
