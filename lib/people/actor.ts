import type { Ctx } from "../auth/context";
import type { Executor } from "../db/client";
import type { Role } from "../db/schema";
import { forbidden } from "../errors";
import * as repo from "./repository";

/** spec: Roles in the web console: "A workspace always keeps at least one owner". */
export const LAST_OWNER = "A workspace needs at least one owner; make someone else an owner first";

/**
 * Whether the actor may make, change or remove owners: an owner of this workspace, or the admin
 * CLI (system). Keys never may: no key acts as a person.
 */
export async function actorIsOwner(ex: Executor, ctx: Ctx): Promise<boolean> {
  if (ctx.actor.type === "system") return true;
  if (ctx.actor.type !== "user") return false;
  return (await repo.findMember(ex, ctx.workspaceId, ctx.actor.userId))?.role === "owner";
}

/** Refuses unless the actor is an owner (spec: only owners make, change or remove owners). */
export async function requireOwner(ex: Executor, ctx: Ctx, action: string) {
  if (!(await actorIsOwner(ex, ctx))) throw forbidden(`Only owners can ${action}`);
}

/** The signed-in person's user id; verbs about "me" have no meaning for a key or the CLI. */
export function requireUser(ctx: Ctx): string {
  if (ctx.actor.type !== "user") throw forbidden("Only a person signed in to the console can do this");
  return ctx.actor.userId;
}

export const roleLabel = (r: Role) => ({ owner: "owner", admin: "admin", member: "member", content_editor: "content editor" })[r];
