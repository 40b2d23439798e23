import { recordAudit } from "../audit";
import { refuseWhileSuspended, requireScope, type Ctx } from "../auth/context";
import { roleScopes } from "../auth/scopes";
import { db, withTx, type Tx } from "../db/client";
import { newId } from "../db/ids";
import type { InvitationRow, Role } from "../db/schema";
import { AppError, conflict, invalidValue, notFound } from "../errors";
import { actionMail, mailConfigured, sendMail } from "../mail";
import { hashPassword } from "../users/password";
import { checkAccountPassword } from "../users/password-attempts";
import * as userRepo from "../users/repository";
import * as workspaceRepo from "../workspaces/repository";
import { requireOwner, roleLabel } from "./actor";
import { toInvitation } from "./members";
import * as repo from "./repository";
import {
  AcceptInvitationInput,
  CreateInvitationInput,
  Password,
  parseInput,
  type InvitationPreview,
  type IssuedInvitation,
} from "./schemas";
import { hashToken, invitationLink, looksLikeToken, newToken } from "./tokens";

/** spec (decisions): invitations expire 7 days after they were made or last re-sent. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

const inviterOf = (ctx: Ctx) => (ctx.actor.type === "user" ? ctx.actor.userId : null);

/**
 * Invites an email address with a role (admin:manage; only owners invite owners). Returns the
 * link once (only its SHA-256 is stored) and, when SMTP_URL is set, emails it; a mail failure
 * loses nothing: the invitation stands and the answer says the email was not sent. When SMTP_URL
 * is set and the address has no account, the link goes only by mail (see issue()).
 * An open invitation for the same address is replaced (cancelled, so its link stops working).
 */
export async function createInvitation(ctx: Ctx, input: CreateInvitationInput): Promise<IssuedInvitation> {
  requireScope(ctx, "admin:manage", "invite people");
  const v = parseInput(CreateInvitationInput, input);
  const token = newToken();
  const { row, workspaceName, inviterName } = await withTx(async (tx) => {
    await repo.lockPeople(tx, ctx.workspaceId);
    if (v.role === "owner") await requireOwner(tx, ctx, "invite an owner");
    const existing = await userRepo.findUserByEmail(tx, v.email);
    if (existing && (await repo.findMember(tx, ctx.workspaceId, existing.id))) throw conflict(`${v.email} is already a member of this workspace`);
    const open = await repo.findOpenInvitationByEmail(tx, ctx.workspaceId, v.email);
    if (open) {
      // why replace, not refuse: the inviter asked for this address and role now; the older link must stop working.
      if (open.role === "owner") await requireOwner(tx, ctx, "replace an invitation to become an owner");
      await repo.updateInvitation(tx, open.id, { cancelledAt: new Date() });
      await recordAudit(tx, ctx, "invitation.cancel", { type: "invitation", id: open.id }, { email: open.email, role: open.role, reason: "replaced" });
    }
    const row = await repo.insertInvitation(tx, {
      id: newId("inv"),
      workspaceId: ctx.workspaceId,
      email: v.email,
      role: v.role,
      tokenHash: hashToken(token),
      invitedByUserId: inviterOf(ctx),
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
    await recordAudit(tx, ctx, "invitation.create", { type: "invitation", id: row.id }, { email: v.email, role: v.role });
    return { row, ...(await names(tx, ctx)) };
  });
  return issue(row, token, workspaceName, inviterName);
}

/** Cancels an open invitation (admin:manage): its link stops working at once. */
export async function cancelInvitation(ctx: Ctx, id: string): Promise<void> {
  requireScope(ctx, "admin:manage", "cancel invitations");
  await withTx(async (tx) => {
    await repo.lockPeople(tx, ctx.workspaceId);
    const inv = await openInvitation(tx, ctx, id);
    await repo.updateInvitation(tx, inv.id, { cancelledAt: new Date() });
    await recordAudit(tx, ctx, "invitation.cancel", { type: "invitation", id: inv.id }, { email: inv.email, role: inv.role });
  });
}

/**
 * Re-sends an open (pending or expired) invitation (admin:manage; an owner invitation only by an
 * owner): a new link valid 7 days from now replaces the old one, which stops working.
 */
export async function resendInvitation(ctx: Ctx, id: string): Promise<IssuedInvitation> {
  requireScope(ctx, "admin:manage", "re-send invitations");
  const token = newToken();
  const { row, workspaceName, inviterName } = await withTx(async (tx) => {
    await repo.lockPeople(tx, ctx.workspaceId);
    const inv = await openInvitation(tx, ctx, id);
    if (inv.role === "owner") await requireOwner(tx, ctx, "re-send an invitation to become an owner");
    const row = await repo.updateInvitation(tx, inv.id, {
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      invitedByUserId: inviterOf(ctx) ?? inv.invitedByUserId,
    });
    await recordAudit(tx, ctx, "invitation.resend", { type: "invitation", id: inv.id }, { email: inv.email, role: inv.role });
    return { row, ...(await names(tx, ctx)) };
  });
  return issue(row, token, workspaceName, inviterName);
}

async function openInvitation(tx: Tx, ctx: Ctx, id: string) {
  const inv = await repo.findInvitation(tx, ctx.workspaceId, id);
  if (!inv) throw notFound("invitation", id);
  if (inv.acceptedAt) throw conflict(`The invitation for ${inv.email} was already accepted`);
  if (inv.cancelledAt) throw conflict(`The invitation for ${inv.email} was cancelled; invite them again`);
  return inv;
}

async function names(tx: Tx, ctx: Ctx) {
  const w = await workspaceRepo.findWorkspace(tx, ctx.workspaceId);
  const inviter = ctx.actor.type === "user" ? await repo.findUserById(tx, ctx.actor.userId) : undefined;
  return { workspaceName: w?.name ?? "a workspace", inviterName: inviter ? (inviter.name ?? inviter.email) : undefined };
}

/**
 * Emails the link (when SMTP_URL is set) and answers what the inviter sees. why the link is left
 * out for an address without an account when mail is configured: accepting it makes the account,
 * with a password of the acceptor's choosing, so whoever holds the link would own that address's
 * account; only the mailbox's owner should. Without mail the inviter is the only way to pass the
 * link on, so it is shown.
 */
async function issue(row: InvitationRow, token: string, workspaceName: string, inviterName?: string): Promise<IssuedInvitation> {
  const link = invitationLink(token);
  const who = inviterName ? `${inviterName} invited you` : "You are invited";
  const email = await sendMail(
    actionMail(row.email, `Join ${workspaceName} on Folio`, {
      paragraphs: [`${who} to join the workspace ${workspaceName} on Folio as ${article(row.role)} ${roleLabel(row.role)}.`],
      action: "Accept the invitation",
      link,
      note: `The link works once and expires on ${row.expiresAt.toUTCString()}. If you did not expect this invitation, ignore this email.`,
    }),
  );
  const mailOnly = mailConfigured() && !(await userRepo.findUserByEmail(db(), row.email));
  return mailOnly ? { invitation: toInvitation(row), email } : { invitation: toInvitation(row), link, email };
}

const article = (r: Role) => (r === "owner" || r === "admin" ? "an" : "a");

/** The state of an invitation link, for the invitee's page; NOT_FOUND for a link that never existed. */
export async function getInvitation(token: string): Promise<InvitationPreview> {
  const inv = looksLikeToken(token) ? await repo.findInvitationByTokenHash(db(), hashToken(token)) : undefined;
  if (!inv) throw invalidLink();
  const [w, user, inviter] = await Promise.all([
    workspaceRepo.findWorkspace(db(), inv.workspaceId),
    userRepo.findUserByEmail(db(), inv.email),
    inv.invitedByUserId ? repo.findUserById(db(), inv.invitedByUserId) : undefined,
  ]);
  const p: InvitationPreview = {
    workspaceName: w?.name ?? "",
    email: inv.email,
    role: inv.role,
    status: statusOf(inv),
    hasAccount: Boolean(user),
    expiresAt: inv.expiresAt.toISOString(),
  };
  if (inviter) p.invitedBy = inviter.name ?? inviter.email;
  return p;
}

const statusOf = (inv: InvitationRow, now = new Date()): InvitationPreview["status"] =>
  inv.acceptedAt ? "accepted" : inv.cancelledAt ? "cancelled" : inv.expiresAt <= now ? "expired" : "pending";

const invalidLink = () => new AppError("NOT_FOUND", "This invitation link is not valid; check that you copied all of it, or ask for a new one");

function refuseClosed(inv: InvitationRow) {
  switch (statusOf(inv)) {
    case "accepted":
      throw conflict("This invitation was already used; sign in to reach the workspace");
    case "cancelled":
      throw conflict("This invitation was cancelled; ask the person who invited you for a new one");
    case "expired":
      throw conflict("This invitation has expired; ask the person who invited you to re-send it");
    case "pending":
      return;
  }
}

export type AcceptedInvitation = { userId: string; email: string; workspaceId: string; role: Role; createdAccount: boolean };

/**
 * Accepts an invitation: a new person sets a name and password, and an account is made; a person
 * whose email already has an account gives its password instead. Either way they join the
 * workspace with the invited role. Each link works once; an expired, cancelled or used one is
 * refused saying which. A wrong password of an existing account counts against that account's
 * limit from `from`, the client address's bucket (lib/users/password-attempts.ts), shared with
 * sign-in: re-sent links give no fresh guesses. Callers also limit attempts per link and per
 * address (lib/http/account-limits.ts).
 */
export async function acceptInvitation(input: AcceptInvitationInput, from: string): Promise<AcceptedInvitation> {
  const v = parseInput(AcceptInvitationInput, input);
  if (!looksLikeToken(v.token)) throw invalidLink();
  const tokenHash = hashToken(v.token);
  const peek = await repo.findInvitationByTokenHash(db(), tokenHash);
  if (!peek) throw invalidLink();
  refuseClosed(peek);
  // spec: States > Workspace: joining changes a suspended workspace; the link works again once the suspension is lifted.
  refuseWhileSuspended((await workspaceRepo.findWorkspace(db(), peek.workspaceId))?.suspended ?? false);

  const existing = await userRepo.findUserByEmail(db(), peek.email);
  let newPasswordHash: string | undefined;
  if (existing) {
    if (!(await checkAccountPassword(existing.email, v.password, existing.passwordHash, from))) {
      throw invalidValue("password", `is not the password of the account ${peek.email}`);
    }
  } else {
    if (!v.name) throw invalidValue("name", "is required to create your account");
    const pw = Password.safeParse(v.password);
    if (!pw.success) throw invalidValue("password", pw.error.issues[0]!.message);
    newPasswordHash = await hashPassword(v.password);
  }

  return withTx(async (tx) => {
    await repo.lockPeople(tx, peek.workspaceId);
    const inv = await repo.findInvitationByTokenHash(tx, tokenHash, { forUpdate: true });
    if (!inv) throw invalidLink(); // re-sent meanwhile: this link was replaced
    refuseClosed(inv);
    let user = await userRepo.findUserByEmail(tx, inv.email);
    let createdAccount = false;
    if (!user) {
      // why the re-check: an account made for this email since the password was checked must not be taken over.
      if (!newPasswordHash) throw conflict("Your account changed meanwhile; open the invitation link again");
      user = await userRepo.insertUser(tx, { id: newId("usr"), email: inv.email, name: v.name, passwordHash: newPasswordHash });
      createdAccount = true;
    } else if (newPasswordHash) {
      throw conflict(`An account for ${inv.email} was created meanwhile; sign in with its password to join`);
    }
    const ctx: Ctx = {
      workspaceId: inv.workspaceId,
      actor: { type: "user", userId: user.id, scopes: roleScopes[inv.role], platformAdmin: user.platformAdmin },
    };
    if (createdAccount) await recordAudit(tx, ctx, "user.create", { type: "user", id: user.id }, { email: inv.email, role: inv.role, via: "invitation" });
    const already = await repo.findMember(tx, inv.workspaceId, user.id);
    if (!already) await userRepo.insertMembership(tx, { workspaceId: inv.workspaceId, userId: user.id, role: inv.role });
    await repo.updateInvitation(tx, inv.id, { acceptedAt: new Date(), acceptedByUserId: user.id });
    await recordAudit(tx, ctx, "invitation.accept", { type: "invitation", id: inv.id }, { email: inv.email, role: already?.role ?? inv.role });
    return { userId: user.id, email: inv.email, workspaceId: inv.workspaceId, role: already?.role ?? inv.role, createdAccount };
  });
}
