import { recordAudit } from "../audit";
import { requireScope, type Ctx } from "../auth/context";
import { db, withTx } from "../db/client";
import type { InvitationRow } from "../db/schema";
import { badRequest, conflict, notFound } from "../errors";
import { LAST_OWNER, requireOwner, requireUser } from "./actor";
import * as repo from "./repository";
import { ChangeRoleInput, parseInput, type Invitation, type Member, type People } from "./schemas";

export function toInvitation(r: InvitationRow, inviter?: { name: string | null; email: string | null }, now = new Date()): Invitation {
  const inv: Invitation = {
    id: r.id,
    email: r.email,
    role: r.role,
    status: r.expiresAt <= now ? "expired" : "pending",
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  };
  if (inviter?.email) inv.invitedBy = inviter.name ? { name: inviter.name, email: inviter.email } : { email: inviter.email };
  return inv;
}

const toMember = (m: { userId: string; name: string | null; email: string; role: Member["role"]; joinedAt: Date }): Member => ({
  userId: m.userId,
  ...(m.name ? { name: m.name } : {}),
  email: m.email,
  role: m.role,
  joinedAt: m.joinedAt.toISOString(),
});

/**
 * The workspace's members (name, email, role, joined) and open invitations (pending or expired).
 * Owners, admins and members may see them; content editors may not. why audit:read: the people
 * of a workspace are part of its history, and the role table gives audit:read to exactly those.
 */
export async function listPeople(ctx: Ctx): Promise<People> {
  requireScope(ctx, "audit:read", "see the workspace's people");
  const [members, invitations] = await Promise.all([repo.listMembers(db(), ctx.workspaceId), repo.listOpenInvitations(db(), ctx.workspaceId)]);
  const out: People = {
    members: members.map(toMember),
    invitations: invitations.map((r) => toInvitation(r.invitation, { name: r.inviterName, email: r.inviterEmail })),
  };
  if (ctx.actor.type === "user") {
    const userId = ctx.actor.userId;
    const me = members.find((m) => m.userId === userId);
    if (me) out.you = { userId, role: me.role };
  }
  return out;
}

/**
 * Changes a member's role (admin:manage). Only owners make someone an owner or change an owner's
 * role; the last owner cannot be demoted. Serialized per workspace, so the rule holds under races.
 */
export async function changeRole(ctx: Ctx, input: ChangeRoleInput): Promise<Member> {
  requireScope(ctx, "admin:manage", "change roles");
  const v = parseInput(ChangeRoleInput, input);
  return withTx(async (tx) => {
    await repo.lockPeople(tx, ctx.workspaceId);
    const target = await repo.findMember(tx, ctx.workspaceId, v.userId);
    if (!target) throw notFound("member", v.userId);
    if (target.role === v.role) return toMember(target);
    if (v.role === "owner") await requireOwner(tx, ctx, "make someone an owner");
    if (target.role === "owner") {
      await requireOwner(tx, ctx, "change an owner's role");
      if ((await repo.countOwners(tx, ctx.workspaceId)) <= 1) throw conflict(LAST_OWNER);
    }
    await repo.updateRole(tx, ctx.workspaceId, v.userId, v.role);
    await recordAudit(tx, ctx, "member.change_role", { type: "user", id: v.userId }, { email: target.email, from: target.role, to: v.role });
    return toMember({ ...target, role: v.role });
  });
}

/**
 * Removes a member from the workspace (admin:manage); their account stays. Only owners remove
 * owners, and never the last one. To remove yourself, leave.
 */
export async function removeMember(ctx: Ctx, userId: string): Promise<void> {
  requireScope(ctx, "admin:manage", "remove members");
  if (ctx.actor.type === "user" && ctx.actor.userId === userId) throw badRequest("To remove yourself from the workspace, leave it");
  await withTx(async (tx) => {
    await repo.lockPeople(tx, ctx.workspaceId);
    const target = await repo.findMember(tx, ctx.workspaceId, userId);
    if (!target) throw notFound("member", userId);
    if (target.role === "owner") {
      await requireOwner(tx, ctx, "remove an owner");
      if ((await repo.countOwners(tx, ctx.workspaceId)) <= 1) throw conflict(LAST_OWNER);
    }
    await repo.deleteMembership(tx, ctx.workspaceId, userId);
    await recordAudit(tx, ctx, "member.remove", { type: "user", id: userId }, { email: target.email, role: target.role });
  });
}

/** The signed-in person leaves the workspace; anyone may, except its last owner. */
export async function leaveWorkspace(ctx: Ctx): Promise<void> {
  const userId = requireUser(ctx);
  await withTx(async (tx) => {
    await repo.lockPeople(tx, ctx.workspaceId);
    const me = await repo.findMember(tx, ctx.workspaceId, userId);
    if (!me) throw notFound("member", userId);
    if (me.role === "owner" && (await repo.countOwners(tx, ctx.workspaceId)) <= 1) throw conflict(LAST_OWNER);
    await repo.deleteMembership(tx, ctx.workspaceId, userId);
    await recordAudit(tx, ctx, "member.leave", { type: "user", id: userId }, { email: me.email, role: me.role });
  });
}

