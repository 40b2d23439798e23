import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../config";
import { db } from "../db/client";
import { passwordResetTokens, users } from "../db/schema";
import { AppError } from "../errors";
import { hashToken } from "./tokens";
import { startTestSmtp, type TestSmtp } from "../testing/smtp";
import { FROM_ADDRESS, newEmail, peopleWorkspace } from "../testing/people";
import { verifyCredentials } from "../users";
import { acceptInvitation, getPasswordReset, listPeople, createInvitation, requestPasswordReset, resendInvitation, resetPassword } from ".";

let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Folio Test <folio@folio.test>";
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetConfigForTests();
  await smtp.stop();
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

/** The one link of the plain-text part that starts with `prefix`. */
function linkIn(text: string, prefix: string): string {
  const links = text.match(/https?:\/\/\S+/g)?.filter((l) => l.includes(prefix)) ?? [];
  expect(new Set(links).size).toBe(1);
  return links[0]!;
}

const tokenOf = (link: string | undefined) => link!.split("/").pop()!;

describe("invitations by mail (SMTP_URL set, a real SMTP server on loopback)", () => {
  it("emails the invitation; for an address without an account the link goes only by mail, and following it joins", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const email = newEmail();
    const issued = await createInvitation(owner.ctx, { email, role: "member" });
    expect(issued.email).toBe("sent");
    // why: accepting makes the account; only the mailbox's owner may hold that link.
    expect(issued).not.toHaveProperty("link");

    const mail = await smtp.waitFor(email);
    expect(mail.to).toEqual([email]);
    expect(mail.from).toBe("folio@folio.test");
    expect(mail.user).toBe("folio"); // authenticated with the credentials in SMTP_URL
    expect(mail.subject).toBe(`Join ${w.name} on Folio`);
    expect(mail.raw).toMatch(/^From: Folio Test <folio@folio\.test>/m);
    expect(mail.text).toContain(`${owner.email} invited you to join the workspace ${w.name} on Folio as a member.`);
    const link = linkIn(mail.text, "/invitations/");
    expect(mail.html).toContain(`href="${link}"`);

    const joined = await acceptInvitation({ token: tokenOf(link), name: "Mailed Person", password: "mailed-password" }, FROM_ADDRESS);
    expect(joined).toMatchObject({ email, role: "member", workspaceId: w.id });
  });

  it("for an address that has an account, the mailed link is shown to the inviter too (it asks for that account's password)", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const elsewhere = await (await peopleWorkspace()).add("member");
    const issued = await createInvitation(owner.ctx, { email: elsewhere.email, role: "member" });
    expect(issued.email).toBe("sent");
    const mail = await smtp.waitFor(elsewhere.email);
    expect(issued.link).toBe(linkIn(mail.text, "/invitations/"));
  });

  it("re-sending mails a new link (again not shown); the first mail's link no longer works", async () => {
    const w = await peopleWorkspace();
    const admin = await w.add("admin");
    const email = newEmail();
    const first = await createInvitation(admin.ctx, { email, role: "content_editor" });
    const firstMail = await smtp.waitFor(email);
    const again = await resendInvitation(admin.ctx, first.invitation.id);
    expect(again.email).toBe("sent");
    expect(again).not.toHaveProperty("link");
    const second = await smtp.waitFor(email, (m) => m !== firstMail);
    expect(second.text).toContain("as a content editor");

    const old = await refusal(acceptInvitation({ token: tokenOf(linkIn(firstMail.text, "/invitations/")), name: "N", password: "long enough" }, FROM_ADDRESS));
    expect(old.status).toBe(404);
    expect((await acceptInvitation({ token: tokenOf(linkIn(second.text, "/invitations/")), name: "N", password: "long enough" }, FROM_ADDRESS)).role).toBe("content_editor");
  });

  it("a mail server that refuses: the invitation stands, the answer says 'failed' without the link, and re-sending later mails a working one", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const email = newEmail();
    smtp.refuseAll();
    let issued;
    try {
      issued = await createInvitation(owner.ctx, { email, role: "admin" });
    } finally {
      smtp.refuseAll(false);
    }
    expect(issued.email).toBe("failed");
    expect(issued).not.toHaveProperty("link");
    expect((await listPeople(owner.ctx)).invitations.map((i) => i.email)).toEqual([email]);
    expect((await resendInvitation(owner.ctx, issued.invitation.id)).email).toBe("sent");
    const mail = await smtp.waitFor(email);
    expect((await acceptInvitation({ token: tokenOf(linkIn(mail.text, "/invitations/")), name: "N", password: "long enough" }, FROM_ADDRESS)).role).toBe("admin");
  });

  it("a mail server that cannot be reached: 'failed', and the invitation stands", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const down = await startTestSmtp();
    await down.stop(); // its port is now closed
    process.env.SMTP_URL = down.url;
    resetConfigForTests();
    try {
      const email = newEmail();
      const issued = await createInvitation(owner.ctx, { email, role: "member" });
      expect(issued.email).toBe("failed");
      expect(issued).not.toHaveProperty("link");
      expect((await listPeople(owner.ctx)).invitations.map((i) => i.email)).toEqual([email]);
    } finally {
      process.env.SMTP_URL = smtp.url;
      resetConfigForTests();
    }
  });
});

describe("forgot password (only with mail)", () => {
  it("mails a one-hour, single-use link that sets a new password", async () => {
    const w = await peopleWorkspace();
    const me = await w.add("member");
    expect(await requestPasswordReset({ email: me.email.toUpperCase() })).toEqual({ sent: true });
    const mail = await smtp.waitFor(me.email);
    expect(mail.subject).toBe("Reset your Folio password");
    const link = linkIn(mail.text, "/reset-password/");
    expect(link).toMatch(/^http:\/\/[^/]+\/reset-password\/[0-9A-Za-z]{43}$/);
    expect(mail.html).toContain(`href="${link}"`);
    const token = tokenOf(link);

    const [row] = await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, hashToken(token)));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(3_600_000);
    expect(await getPasswordReset(token)).toEqual({ state: "valid", email: me.email });

    expect((await refusal(resetPassword({ token, password: "short" }))).details?.[0]?.path).toBe("password");
    expect(await resetPassword({ token, password: "brand-new-password" })).toEqual({ email: me.email });
    expect(await verifyCredentials(me.email, "brand-new-password", FROM_ADDRESS)).toBeDefined();
    expect(await verifyCredentials(me.email, me.password, FROM_ADDRESS)).toBeUndefined();

    expect((await getPasswordReset(token)).state).toBe("used");
    expect((await refusal(resetPassword({ token, password: "another-password" }))).message).toBe(
      "This password reset link was already used; ask for a new one",
    );
  });

  it("an expired link is refused; a new password ends every other unused link", async () => {
    const w = await peopleWorkspace();
    const me = await w.add("admin");
    await requestPasswordReset({ email: me.email });
    const first = tokenOf(linkIn((await smtp.waitFor(me.email)).text, "/reset-password/"));
    await requestPasswordReset({ email: me.email });
    const second = tokenOf(linkIn((await smtp.waitFor(me.email, (m) => !m.text.includes(first))).text, "/reset-password/"));

    await db().update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.tokenHash, hashToken(first)));
    expect((await getPasswordReset(first)).state).toBe("expired");
    expect((await refusal(resetPassword({ token: first, password: "brand-new-password" }))).message).toBe(
      "This password reset link has expired; ask for a new one",
    );
    await resetPassword({ token: second, password: "brand-new-password" });
    expect((await getPasswordReset(second)).state).toBe("used");
  });

  it("answers the same for an address without an account and sends it nothing", async () => {
    const w = await peopleWorkspace();
    const me = await w.add("member");
    const nobody = newEmail("nobody");
    expect(await requestPasswordReset({ email: nobody })).toEqual(await requestPasswordReset({ email: me.email }));

    await smtp.waitFor(me.email);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.messages.filter((m) => m.to.includes(nobody))).toEqual([]);
    const [u] = await db().select().from(users).where(eq(users.email, nobody));
    expect(u).toBeUndefined(); // nothing was made for the unknown address
  });
});
