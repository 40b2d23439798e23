import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "@playwright/test";
import { db } from "../lib/db/client";
import { invitations } from "../lib/db/schema";
import { savedMail } from "../lib/testing/smtp";
import { getWorkspace } from "../lib/workspaces";
import { baseURL, checkA11y, createPerson, expect, randomClientAddress, screenshots, signIn, test, type Person } from "./fixtures";

/**
 * People and accounts: invitations (accepted in a second browser), roles under the spec's table,
 * the one-owner rule, your profile and password, and "forgot password" by mail through the SMTP
 * server the e2e setup starts (SMTP_URL).
 */

// why: each journey is a person's whole task in one or two browsers, on a 2-core machine.
test.describe.configure({ timeout: 180_000 });

const LAST_OWNER = "A workspace needs at least one owner; make someone else an owner first";
const newEmail = (label: string) => `${label}-${randomBytes(4).toString("hex")}@e2e.folio.test`;

/** The mail the e2e SMTP server received for `to` (and `match`), waiting for it to arrive. */
async function mailTo(to: string, match: (text: string) => boolean = () => true) {
  const dir = process.env.FOLIO_E2E_MAIL_DIR;
  if (!dir) throw new Error("FOLIO_E2E_MAIL_DIR is not set: e2e/global-setup.ts starts the SMTP server");
  let found: ReturnType<typeof savedMail>[number] | undefined;
  await expect.poll(() => (found = savedMail(dir).find((m) => m.to.includes(to) && match(m.text))) !== undefined, { timeout: 15_000 }).toBe(true);
  return found!;
}

const linkIn = (text: string, part: string) => text.match(/https?:\/\/\S+/g)!.find((l) => l.includes(part))!;

/** A browser context of its own (a second person), with a client address of its own. */
async function secondBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseURL(), extraHTTPHeaders: { "x-forwarded-for": randomClientAddress() } });
  return context.newPage();
}

async function invite(page: Page, email: string, role: "Owner" | "Admin" | "Member" | "Content editor") {
  await page.getByRole("button", { name: "Invite people" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite people" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("combobox", { name: "Role" }).click();
  await page.getByRole("option", { name: role }).click();
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  const ready = page.getByRole("dialog", { name: "Invitation ready" });
  await expect(ready).toBeVisible();
  // The e2e server sends mail: the link of an address without an account goes only by mail (docs/api.md).
  const shown = ready.getByTestId("invitation-link");
  return { dialog: ready, link: (await shown.count()) ? (await shown.textContent())!.trim() : undefined };
}

const pathOf = (link: string) => new URL(link).pathname;

/** Everything the web server and the worker logged so far (their log files in DATA_DIR). */
function serverLogs(): string {
  const dir = process.env.DATA_DIR!;
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".log"))
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

test("an owner invites an admin by email; the invitee accepts in a second browser and lands in the workspace", async ({ page, browser }) => {
  const owner = await createPerson({ role: "owner" });
  await signIn(page, owner.email, owner.password, "/people");
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await expect(page.getByText("No open invitations")).toBeVisible();
  await screenshots(page, "people-empty-invitations");

  const email = newEmail("invitee");
  const { dialog, link: shown } = await invite(page, email, "Admin");
  // A new account's link goes only to the mailbox: the inviter is told so and never sees it.
  expect(shown).toBeUndefined();
  await expect(dialog.getByText(`We emailed the invitation to ${email}. The link is not shown here`)).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  await checkA11y(page);
  await screenshots(page, "people-invitation-ready");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("region", { name: "Invitations" }).getByText(email)).toBeVisible();

  const mail = await mailTo(email);
  expect(mail.subject).toMatch(/^Join E2E \w+ on Folio$/);
  const link = linkIn(mail.text, "/invitations/");
  expect(link).toMatch(/\/invitations\/[0-9A-Za-z]{43}$/);

  const invitee = await secondBrowser(browser);
  await invitee.goto(pathOf(linkIn(mail.text, "/invitations/")));
  await expect(invitee.getByRole("heading", { level: 1, name: /^Join E2E/ })).toBeVisible();
  await checkA11y(invitee);
  await screenshots(invitee, "invitation-new-account");
  await invitee.getByLabel("Your name").fill("Invited Admin");
  await invitee.getByLabel("Choose a password").fill("short");
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee.getByText("Use at least 8 characters.")).toBeVisible();
  await invitee.getByLabel("Choose a password").fill("invited-admin-password");
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await invitee.waitForURL((u) => u.pathname === "/");
  await invitee.goto("/people");
  await expect(invitee.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await expect(invitee.getByRole("row", { name: /Invited Admin/ })).toBeVisible();
  await invitee.context().close();

  // The link was used: it says so, and the inviter's list shows the new admin.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Role of Invited Admin" })).toHaveText("Admin");
  const again = await secondBrowser(browser);
  await again.goto(pathOf(link));
  await expect(again.getByRole("heading", { level: 1, name: "This invitation was already used" })).toBeVisible();
  await again.context().close();
  // Links carry their token: none reaches a log.
  expect(serverLogs()).not.toContain(pathOf(link).split("/").pop()!);
});

test("a person who already has an account signs in with it to join", async ({ page, browser }) => {
  const owner = await createPerson({ role: "owner" });
  const elsewhere = await createPerson({ role: "member" });
  await signIn(page, owner.email, owner.password, "/people");
  const { dialog, link } = await invite(page, elsewhere.email, "Member");
  // An address with an account: the link is shown (accepting asks for the account's password).
  await expect(dialog.getByRole("button", { name: "Copy link" })).toBeVisible();

  const other = await secondBrowser(browser);
  await other.goto(pathOf(link!));
  await expect(other.getByText(`Sign in with the password of your account ${elsewhere.email} to join.`)).toBeVisible();
  await screenshots(other, "invitation-existing-account");
  await other.getByLabel("Password").fill("not-the-password");
  await other.getByRole("button", { name: "Sign in and join" }).click();
  await expect(other.getByText(`is not the password of the account ${elsewhere.email}`)).toBeVisible();
  await other.getByLabel("Password").fill(elsewhere.password);
  await other.getByRole("button", { name: "Sign in and join" }).click();
  await other.waitForURL((u) => u.pathname === "/");
  // They land in the workspace they joined, not in their first one.
  const joined = await getWorkspace(owner.workspaceId);
  await expect(other.getByRole("banner").getByText(joined.name)).toBeVisible();
  await other.context().close();
});

test("re-sending gives a new link and ends the old one; cancelling ends it too; an expired link says so", async ({ page, browser }) => {
  const owner = await createPerson({ role: "owner" });
  await signIn(page, owner.email, owner.password, "/people");
  const email = newEmail("resend");
  const first = await invite(page, email, "Member");
  expect(first.link).toBeUndefined();
  const firstLink = linkIn((await mailTo(email)).text, "/invitations/");
  await first.dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("region", { name: "Invitations" }).getByText(email)).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "people-invitations");

  await page.getByRole("button", { name: `Re-send the invitation for ${email}` }).click();
  const resent = page.getByRole("dialog", { name: "Invitation re-sent" });
  await expect(resent).toBeVisible();
  await expect(resent.getByTestId("invitation-link")).toHaveCount(0);
  await screenshots(page, "people-invitation-resent");
  await resent.getByRole("button", { name: "Done" }).click();
  const second = linkIn((await mailTo(email, (t) => !t.includes(firstLink))).text, "/invitations/");
  expect(second).not.toBe(firstLink);

  const visitor = await secondBrowser(browser);
  await visitor.goto(pathOf(firstLink));
  await expect(visitor.getByRole("heading", { level: 1, name: "This invitation link is not valid" })).toBeVisible();
  await checkA11y(visitor);

  // An expired invitation (its expiry moved into the past).
  const [row] = await db().select().from(invitations).where(eq(invitations.email, email));
  await db().update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, row!.id));
  await visitor.goto(pathOf(second));
  await expect(visitor.getByRole("heading", { level: 1, name: "This invitation has expired" })).toBeVisible();
  await screenshots(visitor, "invitation-expired");
  await page.reload();
  await expect(page.getByRole("region", { name: "Invitations" }).getByText("Expired")).toBeVisible();

  await page.getByRole("button", { name: `Cancel the invitation for ${email}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel invitation" }).click();
  await expect(page.getByText("No open invitations")).toBeVisible();
  await visitor.goto(pathOf(second));
  await expect(visitor.getByRole("heading", { level: 1, name: "This invitation was cancelled" })).toBeVisible();
  await screenshots(visitor, "invitation-cancelled");
  await visitor.context().close();
});

test("an admin cannot make an owner or change one; members see the list read-only; content editors are refused", async ({ page, browser }) => {
  const owner = await createPerson({ role: "owner" });
  const { addToWorkspaceAs } = await seedPeople(owner);
  const admin = await addToWorkspaceAs("admin");
  const member = await addToWorkspaceAs("member");
  const editor = await addToWorkspaceAs("content_editor");

  await signIn(page, admin.email, admin.password, "/people");
  // The owner's row has no role select for an admin, and no remove button.
  await expect(page.getByRole("combobox", { name: `Role of ${owner.name}` })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Remove ${owner.name}` })).toHaveCount(0);
  await page.getByRole("combobox", { name: `Role of ${member.name}` }).click();
  await expect(page.getByRole("option", { name: "Owner" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Invite people" }).click();
  await page.getByRole("dialog").getByRole("combobox", { name: "Role" }).click();
  await expect(page.getByRole("option", { name: "Owner" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  // An admin changes a member's role.
  await page.getByRole("combobox", { name: `Role of ${member.name}` }).click();
  await page.getByRole("option", { name: "Content editor" }).click();
  await expect(page.getByText(`${member.name} is now a content editor`, { exact: true })).toBeVisible();
  // why again: the list refreshes after the first change, and a menu opened during that refresh closes.
  await expect(async () => {
    await page.keyboard.press("Escape");
    await page.getByRole("combobox", { name: `Role of ${member.name}` }).click();
    await page.getByRole("option", { name: "Member" }).click({ timeout: 3_000 });
  }).toPass();
  await expect(page.getByText(`${member.name} is now a member`, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove ${member.name}` })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "people-admin");

  const m = await secondBrowser(browser);
  await signIn(m, member.email, member.password, "/people");
  await expect(m.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  await expect(m.getByRole("row", { name: new RegExp(owner.name) })).toBeVisible();
  await expect(m.getByRole("button", { name: "Invite people" })).toHaveCount(0);
  await expect(m.getByRole("combobox")).toHaveCount(0);
  await expect(m.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
  await checkA11y(m);
  await screenshots(m, "people-read-only-member");
  await m.context().close();

  const e = await secondBrowser(browser);
  await signIn(e, editor.email, editor.password);
  const res = await e.goto("/people");
  expect(res?.status()).toBe(403);
  await expect(e.getByText("Your role (content editor) cannot see the people of this workspace")).toBeVisible();
  await e.context().close();
});

test("the last owner cannot leave or be demoted, and is told why", async ({ page }) => {
  const owner = await createPerson({ role: "owner" });
  await signIn(page, owner.email, owner.password, "/people");
  await page.getByRole("combobox", { name: `Role of ${owner.name}` }).click();
  await page.getByRole("option", { name: "Admin" }).click();
  await expect(page.getByText(LAST_OWNER, { exact: true })).toBeVisible();
  await expect(page.getByRole("combobox", { name: `Role of ${owner.name}` })).toHaveText("Owner");

  await page.goto("/settings");
  await page.getByRole("button", { name: "Leave workspace" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Leave workspace" }).click();
  await expect(page.getByRole("alert").filter({ hasText: LAST_OWNER })).toBeVisible();
  await screenshots(page, "settings-last-owner");
});

test("settings: rename the workspace, change your name, change your password (ending the other browser's session), sign out everywhere", async ({ page, browser }) => {
  const owner = await createPerson({ role: "owner" });
  await signIn(page, owner.email, owner.password, "/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "settings-owner");

  const workspaceName = `Renamed ${randomBytes(2).toString("hex")}`;
  await page.getByLabel("Workspace name").fill(workspaceName);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Workspace renamed", { exact: true })).toBeVisible();
  await expect(page.getByRole("banner").getByText(workspaceName)).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill("Renamed Person");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your name was saved", { exact: true })).toBeVisible();

  // The same person is signed in in a second browser too.
  const other = await secondBrowser(browser);
  await signIn(other, owner.email, owner.password, "/settings");
  await expect(other.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();

  await page.getByLabel("Current password").fill("wrong-password");
  await page.getByLabel("New password", { exact: true }).fill("the-new-password");
  await page.getByLabel("Repeat the new password").fill("the-new-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("is not your current password")).toBeVisible();
  await page.getByLabel("Current password").fill(owner.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password was changed", { exact: true })).toBeVisible();

  // This browser stays signed in; the other one's session ended with the change.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await other.reload();
  await expect(other).toHaveURL((u) => u.pathname === "/sign-in");
  await other.getByLabel("Email").fill(owner.email);
  await other.getByLabel("Password").fill(owner.password);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByText("Email or password is wrong.")).toBeVisible();
  await signIn(other, owner.email, "the-new-password", "/settings");
  await expect(other.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();

  // "Sign out everywhere" ends both browsers' sessions.
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Sign out everywhere?" });
  await checkA11y(page);
  await screenshots(page, "settings-sign-out-everywhere");
  await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL((u) => u.pathname === "/sign-in");
  await other.reload();
  await expect(other).toHaveURL((u) => u.pathname === "/sign-in");
  await other.context().close();
  await signIn(page, owner.email, "the-new-password");
  await expect(page).toHaveURL((u) => u.pathname === "/");
});

test("a member sees the workspace name read-only in settings", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password, "/settings");
  await expect(page.getByLabel("Workspace name")).toHaveAttribute("readonly", "");
  await expect(page.getByRole("button", { name: "Save name" })).toHaveCount(0);
  await screenshots(page, "settings-member");
});

test("forgot password: the link arrives by mail, sets a new password once, and signs the person in", async ({ page, browser }) => {
  const person = await createPerson({ role: "member" });
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email").fill(person.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(`If ${person.email} has a Folio account, we sent it a link`)).toBeVisible();
  await screenshots(page, "forgot-password-sent");

  const mail = await mailTo(person.email, (t) => t.includes("/reset-password/"));
  const link = pathOf(linkIn(mail.text, "/reset-password/"));
  const other = await secondBrowser(browser);
  await other.goto(link);
  await expect(other.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await checkA11y(other);
  await screenshots(other, "reset-password");
  await other.getByLabel("New password", { exact: true }).fill("reset-by-mail-password");
  await other.getByLabel("Repeat the new password").fill("reset-by-mail-password");
  await other.getByRole("button", { name: "Set new password" }).click();
  await other.waitForURL((u) => u.pathname === "/");
  await other.goto(link);
  await expect(other.getByRole("heading", { level: 1, name: "This link was already used" })).toBeVisible();
  await other.context().close();
  expect(serverLogs()).not.toContain(link.split("/").pop()!);

  // An address without an account gets the same answer.
  await page.goto("/forgot-password");
  const nobody = newEmail("nobody");
  await page.getByLabel("Email").fill(nobody);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(`If ${nobody} has a Folio account, we sent it a link`)).toBeVisible();
});

/** People added to the owner's workspace, as the admin CLI's `user create` makes them. */
async function seedPeople(owner: Person) {
  return { addToWorkspaceAs: (role: Person["role"]) => createPerson({ role, workspaceId: owner.workspaceId }) };
}
