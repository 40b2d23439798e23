import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "../audit";
import { db } from "../db/client";
import { invitations } from "../db/schema";
import { AppError } from "../errors";
import { FROM_ADDRESS, newEmail, peopleWorkspace, personCtx } from "../testing/people";
import { verifyCredentials } from "../users";
import {
  acceptInvitation,
  cancelInvitation,
  changePassword,
  changeRole,
  createInvitation,
  getInvitation,
  LAST_OWNER,
  leaveWorkspace,
  listPeople,
  removeMember,
  requestPasswordReset,
  resendInvitation,
  updateProfile,
} from ".";

/** The AppError a promise rejects with. */
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

/** The token of a link the inviter was shown (without SMTP_URL every link is shown). */
const tokenOf = (link: string | undefined) => link!.split("/").pop()!;

describe("who may see and manage people (spec: Roles in the web console)", () => {
  it("owners, admins and members see members and invitations; content editors are refused", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const admin = await w.add("admin");
    const member = await w.add("member");
    const editor = await w.add("content_editor");
    await createInvitation(owner.ctx, { email: newEmail(), role: "member" });

    for (const p of [owner, admin, member]) {
      const people = await listPeople(p.ctx);
      expect(people.members.map((m) => m.email).sort()).toEqual([owner, admin, member, editor].map((x) => x.email).sort());
      expect(people.members.find((m) => m.userId === admin.userId)).toMatchObject({ role: "admin", joinedAt: expect.any(String) });
      expect(people.invitations).toHaveLength(1);
      expect(people.invitations[0]).toMatchObject({ role: "member", status: "pending", invitedBy: { email: owner.email } });
      expect(people.you).toEqual({ userId: p.userId, role: p.role });
    }
    const e = await refusal(listPeople(editor.ctx));
    expect(e.status).toBe(403);
  });

  it("owners and admins invite, members and content editors cannot; only owners invite owners", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const admin = await w.add("admin");
    const member = await w.add("member");
    const editor = await w.add("content_editor");

    expect((await createInvitation(admin.ctx, { email: newEmail(), role: "admin" })).invitation.role).toBe("admin");
    expect((await createInvitation(owner.ctx, { email: newEmail(), role: "owner" })).invitation.role).toBe("owner");
    const byAdmin = await refusal(createInvitation(admin.ctx, { email: newEmail(), role: "owner" }));
    expect(byAdmin).toMatchObject({ status: 403, message: "Only owners can invite an owner" });
    for (const p of [member, editor]) {
      const e = await refusal(createInvitation(p.ctx, { email: newEmail(), role: "member" }));
      expect(e.status).toBe(403);
      expect(e.message).toMatch(/admin:manage/);
    }
  });

  it("admins change roles of non-owners; only owners make owners or change an owner's role", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const owner2 = await w.add("owner");
    const admin = await w.add("admin");
    const member = await w.add("member");
    const editor = await w.add("content_editor");

    expect((await changeRole(admin.ctx, { userId: member.userId, role: "content_editor" })).role).toBe("content_editor");
    expect((await changeRole(admin.ctx, { userId: member.userId, role: "admin" })).role).toBe("admin");
    expect(await refusal(changeRole(admin.ctx, { userId: member.userId, role: "owner" }))).toMatchObject({
      status: 403,
      message: "Only owners can make someone an owner",
    });
    expect(await refusal(changeRole(admin.ctx, { userId: owner2.userId, role: "member" }))).toMatchObject({
      status: 403,
      message: "Only owners can change an owner's role",
    });
    for (const p of [editor]) expect((await refusal(changeRole(p.ctx, { userId: member.userId, role: "member" }))).status).toBe(403);

    expect((await changeRole(owner.ctx, { userId: member.userId, role: "owner" })).role).toBe("owner");
    expect((await changeRole(owner.ctx, { userId: owner2.userId, role: "member" })).role).toBe("member");
    const roles = Object.fromEntries((await listPeople(owner.ctx)).members.map((m) => [m.userId, m.role]));
    expect(roles).toMatchObject({ [owner.userId]: "owner", [owner2.userId]: "member", [member.userId]: "owner", [admin.userId]: "admin" });
    const e = await refusal(changeRole(member.ctx, { userId: admin.userId, role: "member" }));
    expect(e.status).toBe(403); // member.ctx still has a member's scopes: the role in ctx is what the session says
  });

  it("admins remove non-owners; only owners remove owners; an unknown or foreign member is 404", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const owner2 = await w.add("owner");
    const admin = await w.add("admin");
    const member = await w.add("member");
    const other = await (await peopleWorkspace()).add("member");

    expect(await refusal(removeMember(admin.ctx, owner2.userId))).toMatchObject({ status: 403, message: "Only owners can remove an owner" });
    expect((await refusal(removeMember(member.ctx, admin.userId))).status).toBe(403);
    expect((await refusal(removeMember(admin.ctx, other.userId))).status).toBe(404);
    await removeMember(admin.ctx, member.userId);
    await removeMember(owner.ctx, owner2.userId);
    expect((await listPeople(owner.ctx)).members.map((m) => m.userId).sort()).toEqual([owner.userId, admin.userId].sort());
    // The account stays: the removed person can still sign in (to their other workspaces).
    expect(await verifyCredentials(member.email, member.password, FROM_ADDRESS)).toBeDefined();
  });
});

describe("a workspace always keeps one owner", () => {
  it("the last owner cannot leave, be demoted or be removed, with the spec's message", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const member = await w.add("member");

    expect(await refusal(leaveWorkspace(owner.ctx))).toMatchObject({ status: 409, message: LAST_OWNER });
    expect(LAST_OWNER).toBe("A workspace needs at least one owner; make someone else an owner first");
    expect(await refusal(changeRole(owner.ctx, { userId: owner.userId, role: "admin" }))).toMatchObject({ status: 409, message: LAST_OWNER });
    expect(await refusal(removeMember(w.system, owner.userId))).toMatchObject({ status: 409, message: LAST_OWNER });

    await changeRole(owner.ctx, { userId: member.userId, role: "owner" });
    await leaveWorkspace(owner.ctx);
    const people = await listPeople(personCtx(w.id, member.userId, "owner"));
    expect(people.members.map((m) => [m.userId, m.role])).toEqual([[member.userId, "owner"]]);
  });

  it("two owners demoting each other at the same moment: exactly one succeeds", async () => {
    for (let round = 0; round < 3; round++) {
      const w = await peopleWorkspace();
      const a = await w.add("owner");
      const b = await w.add("owner");
      const results = await Promise.allSettled([
        changeRole(a.ctx, { userId: b.userId, role: "admin" }),
        changeRole(b.ctx, { userId: a.userId, role: "admin" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [rejected] = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect((rejected!.reason as AppError).status).toBeGreaterThanOrEqual(403);
      const owners = (await listPeople(w.system)).members.filter((m) => m.role === "owner");
      expect(owners).toHaveLength(1);
    }
  });

  it("two owners leaving at the same moment: one stays", async () => {
    const w = await peopleWorkspace();
    const a = await w.add("owner");
    const b = await w.add("owner");
    const results = await Promise.allSettled([leaveWorkspace(a.ctx), leaveWorkspace(b.ctx)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await listPeople(w.system)).members.filter((m) => m.role === "owner")).toHaveLength(1);
  });
});

describe("invitations", () => {
  it("a new person accepts with a name and password, joins with the role and can sign in; the link then is used", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const email = newEmail();
    const issued = await createInvitation(owner.ctx, { email: email.toUpperCase(), role: "admin" });
    expect(issued.email).toBe("not_configured");
    expect(issued.link).toMatch(/^http:\/\/[^/]+\/invitations\/[0-9A-Za-z]{43}$/);
    expect(issued.invitation).toMatchObject({ email, role: "admin", status: "pending" });
    const days = (Date.parse(issued.invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const token = tokenOf(issued.link);
    expect(await getInvitation(token)).toMatchObject({ workspaceName: w.name, email, role: "admin", status: "pending", hasAccount: false });
    // The token itself is stored nowhere.
    const rows = await db().execute(sql`select count(*)::int as n from invitations where token_hash = ${token} or id = ${token}`);
    expect(rows[0]).toEqual({ n: 0 });

    const missingName = await refusal(acceptInvitation({ token, password: "long enough" }, FROM_ADDRESS));
    expect(missingName.details).toEqual([{ path: "name", message: "is required to create your account" }]);
    const shortPassword = await refusal(acceptInvitation({ token, name: "Ada", password: "short" }, FROM_ADDRESS));
    expect(shortPassword.details?.[0]?.path).toBe("password");

    const accepted = await acceptInvitation({ token, name: "Ada Lovelace", password: "analytical-engine" }, FROM_ADDRESS);
    expect(accepted).toMatchObject({ email, workspaceId: w.id, role: "admin", createdAccount: true });
    expect(await verifyCredentials(email, "analytical-engine", FROM_ADDRESS)).toMatchObject({ name: "Ada Lovelace" });
    const people = await listPeople(owner.ctx);
    expect(people.members.find((m) => m.email === email)).toMatchObject({ name: "Ada Lovelace", role: "admin" });
    expect(people.invitations).toEqual([]);

    expect(await refusal(acceptInvitation({ token, name: "Ada", password: "analytical-engine" }, FROM_ADDRESS))).toMatchObject({
      status: 409,
      message: "This invitation was already used; sign in to reach the workspace",
    });
    expect((await getInvitation(token)).status).toBe("accepted");

    const actions = (await listAuditEvents(w.system, { limit: 50 })).items.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["invitation.create", "user.create", "invitation.accept"]));
  });

  it("a person with an account signs in with its password to join; a wrong password is refused at its field", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const elsewhere = await (await peopleWorkspace()).add("owner");
    const { link } = await createInvitation(owner.ctx, { email: elsewhere.email, role: "member" });
    const token = tokenOf(link);
    expect((await getInvitation(token)).hasAccount).toBe(true);

    const wrong = await refusal(acceptInvitation({ token, password: "not-the-password" }, FROM_ADDRESS));
    expect(wrong.status).toBe(400);
    expect(wrong.details).toEqual([{ path: "password", message: `is not the password of the account ${elsewhere.email}` }]);

    const accepted = await acceptInvitation({ token, name: "Ignored", password: elsewhere.password }, FROM_ADDRESS);
    expect(accepted).toMatchObject({ userId: elsewhere.userId, role: "member", createdAccount: false });
    expect((await listPeople(owner.ctx)).members.find((m) => m.userId === elsewhere.userId)?.role).toBe("member");
    expect(await verifyCredentials(elsewhere.email, elsewhere.password, FROM_ADDRESS)).toBeDefined(); // the password is unchanged
  });

  it("an expired invitation is refused; re-sending gives a new 7-day link and the old one stops working", async () => {
    const w = await peopleWorkspace();
    const admin = await w.add("admin");
    const email = newEmail();
    const first = await createInvitation(admin.ctx, { email, role: "member" });
    await db().update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, first.invitation.id));

    expect((await getInvitation(tokenOf(first.link))).status).toBe("expired");
    expect((await listPeople(admin.ctx)).invitations[0]?.status).toBe("expired");
    expect(await refusal(acceptInvitation({ token: tokenOf(first.link), name: "N", password: "long enough" }, FROM_ADDRESS))).toMatchObject({
      status: 409,
      message: "This invitation has expired; ask the person who invited you to re-send it",
    });

    const again = await resendInvitation(admin.ctx, first.invitation.id);
    expect(again.link).not.toBe(first.link);
    expect(again.invitation).toMatchObject({ id: first.invitation.id, status: "pending" });
    expect(Date.parse(again.invitation.expiresAt)).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    expect((await refusal(acceptInvitation({ token: tokenOf(first.link), name: "N", password: "long enough" }, FROM_ADDRESS))).status).toBe(404);
    expect((await refusal(getInvitation(tokenOf(first.link)))).message).toMatch(/not valid/);
    expect((await acceptInvitation({ token: tokenOf(again.link), name: "N", password: "long enough" }, FROM_ADDRESS)).role).toBe("member");
  });

  it("a cancelled invitation is refused saying so; cancelling twice is a conflict; members cannot cancel or re-send", async () => {
    const w = await peopleWorkspace();
    const admin = await w.add("admin");
    const member = await w.add("member");
    const { invitation, link } = await createInvitation(admin.ctx, { email: newEmail(), role: "member" });
    expect((await refusal(cancelInvitation(member.ctx, invitation.id))).status).toBe(403);
    expect((await refusal(resendInvitation(member.ctx, invitation.id))).status).toBe(403);

    await cancelInvitation(admin.ctx, invitation.id);
    expect((await getInvitation(tokenOf(link))).status).toBe("cancelled");
    expect(await refusal(acceptInvitation({ token: tokenOf(link), name: "N", password: "long enough" }, FROM_ADDRESS))).toMatchObject({
      status: 409,
      message: "This invitation was cancelled; ask the person who invited you for a new one",
    });
    expect((await refusal(cancelInvitation(admin.ctx, invitation.id))).status).toBe(409);
    expect((await refusal(resendInvitation(admin.ctx, invitation.id))).status).toBe(409);
    expect((await listPeople(admin.ctx)).invitations).toEqual([]);
    const other = await (await peopleWorkspace()).add("owner");
    expect((await refusal(cancelInvitation(other.ctx, invitation.id))).status).toBe(404);
  });

  it("a second invitation for the same address replaces the first; an existing member cannot be invited", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const admin = await w.add("admin");
    const email = newEmail();
    const first = await createInvitation(owner.ctx, { email, role: "member" });
    const second = await createInvitation(owner.ctx, { email, role: "admin" });
    const open = (await listPeople(owner.ctx)).invitations;
    expect(open.map((i) => [i.id, i.role])).toEqual([[second.invitation.id, "admin"]]);
    expect((await getInvitation(tokenOf(first.link))).status).toBe("cancelled");

    // An admin may not replace an invitation to become an owner (that would be changing an owner's).
    await createInvitation(owner.ctx, { email, role: "owner" });
    expect(await refusal(createInvitation(admin.ctx, { email, role: "member" }))).toMatchObject({
      status: 403,
      message: "Only owners can replace an invitation to become an owner",
    });
    expect(await refusal(createInvitation(owner.ctx, { email: admin.email, role: "member" }))).toMatchObject({
      status: 409,
      message: `${admin.email} is already a member of this workspace`,
    });
    expect((await refusal(createInvitation(owner.ctx, { email: "not an email", role: "member" }))).details).toEqual([{ path: "email", message: "must be an email address such as ada@example.com" }]);
  });

  it("a malformed or unknown link is 'not valid'", async () => {
    expect((await refusal(getInvitation("nope"))).status).toBe(404);
    expect((await refusal(getInvitation("A".repeat(43)))).status).toBe(404);
    expect((await refusal(acceptInvitation({ token: "x".repeat(43), name: "N", password: "long enough" }, FROM_ADDRESS))).status).toBe(404);
  });
});

describe("your profile and password", () => {
  it("changes your name; changes your password with the current one; audits both", async () => {
    const w = await peopleWorkspace();
    const me = await w.add("member");
    expect(await updateProfile(me.ctx, { name: "  Grace Hopper " })).toMatchObject({ name: "Grace Hopper", email: me.email });
    expect((await refusal(updateProfile(me.ctx, { name: "   " }))).details?.[0]?.path).toBe("name");

    const wrong = await refusal(changePassword(me.ctx, { currentPassword: "wrong-one", newPassword: "a-new-password" }, { from: FROM_ADDRESS }));
    expect(wrong.details).toEqual([{ path: "currentPassword", message: "is not your current password" }]);
    expect((await refusal(changePassword(me.ctx, { currentPassword: me.password, newPassword: "short" }, { from: FROM_ADDRESS }))).details?.[0]?.path).toBe("newPassword");
    await changePassword(me.ctx, { currentPassword: me.password, newPassword: "a-new-password" }, { from: FROM_ADDRESS });
    expect(await verifyCredentials(me.email, "a-new-password", FROM_ADDRESS)).toBeDefined();
    expect(await verifyCredentials(me.email, me.password, FROM_ADDRESS)).toBeUndefined();

    const actions = (await listAuditEvents(w.system, { limit: 50 })).items.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["user.update_profile", "user.change_password"]));
  });

  it("'forgot password' does not exist without mail", async () => {
    const e = await refusal(requestPasswordReset({ email: "anyone@folio.test" }));
    expect(e.status).toBe(404);
    expect(e.message).toMatch(/not available/);
  });
});
