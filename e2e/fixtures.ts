import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { encode } from "next-auth/jwt";
import { systemCtx } from "../lib/auth/context";
import { authOptions } from "../lib/sessions";
import { db } from "../lib/db/client";
import type { Role } from "../lib/db/schema";
import { TEST_ADMIN } from "../lib/testing/global-setup";
import { createUser, firstWorkspaceOf, verifyCredentials } from "../lib/users";
import { insertMembership } from "../lib/users/repository";
import { createWorkspace } from "../lib/workspaces";

/**
 * What every console journey shares. Import `test` and `expect` from here, not from
 * @playwright/test: each test's browser gets the server's address (`baseURL`) and a client
 * address of its own (see `clientAddress`).
 */

export type Person = { email: string; password: string; name: string; userId: string; workspaceId: string; role: Role };

/** The bootstrap owner of the e2e server (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const OWNER = TEST_ADMIN;

/** The e2e server's address, set by global-setup.ts. */
export const baseURL = () => {
  const url = process.env.FOLIO_E2E_BASE_URL;
  if (!url) throw new Error("FOLIO_E2E_BASE_URL is not set: run the journeys with playwright test -c e2e/playwright.config.ts");
  return url;
};

/** A fresh workspace (as the admin CLI makes them). */
export async function newWorkspace(name = `E2E ${randomBytes(3).toString("hex")}`): Promise<{ id: string; name: string }> {
  const w = await createWorkspace("e2e", name);
  return { id: w.id, name: w.name };
}

/** The bootstrap owner's workspace ("Default"). */
export async function defaultWorkspaceId(): Promise<string> {
  const owner = await verifyCredentials(OWNER.email, OWNER.password);
  const id = owner && (await firstWorkspaceOf(db(), owner.id));
  if (!id) throw new Error("the e2e server has no bootstrap owner");
  return id;
}

/**
 * A new person with a role in a workspace (a fresh one when not given), made through the same verb
 * as the admin CLI's `user create` (`platformAdmin`: its --platform-admin). Returns what they sign in with.
 */
export async function createPerson(opts: { role: Role; workspaceId?: string; name?: string; platformAdmin?: boolean }): Promise<Person> {
  const workspaceId = opts.workspaceId ?? (await newWorkspace()).id;
  const email = `${opts.role.replace("_", "-")}-${randomBytes(4).toString("hex")}@e2e.folio.test`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const name = opts.name ?? `${opts.role === "content_editor" ? "Content editor" : opts.role[0]!.toUpperCase() + opts.role.slice(1)} ${randomBytes(2).toString("hex")}`;
  const u = await createUser(systemCtx(workspaceId, "e2e"), { email, password, name, role: opts.role, platformAdmin: opts.platformAdmin ?? false });
  return { email, password, name, userId: u.id, workspaceId, role: opts.role };
}

/** Makes an existing person a member of another workspace too (a seed: no verb does this before invitations). */
export async function addToWorkspace(person: Person, workspaceId: string, role: Role = person.role) {
  await insertMembership(db(), { userId: person.userId, workspaceId, role });
}

/**
 * A session cookie for `person` that expired `secondsAgo` ago, signed with the server's key, as
 * the browser would still hold it after the session's maxAge.
 */
export async function expiredSessionCookie(person: Person, secondsAgo = 60) {
  const token = await encode({
    token: { sub: person.userId, uid: person.userId, wid: person.workspaceId, email: person.email, name: person.name },
    secret: authOptions().secret!,
    maxAge: -secondsAgo,
  });
  return { name: "next-auth.session-token", value: token, url: baseURL() };
}

/** Signs in through the sign-in page, as a person does, and waits to land in the console. */
export async function signIn(page: Page, email: string, password: string, next?: string) {
  await page.goto(next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname !== "/sign-in");
}

/** Fails on any serious or critical axe violation (WCAG 2.1 A and AA rules), naming each. */
export async function checkA11y(page: Page) {
  // why: a page that is re-rendering after a server action may be between titles for a moment; one that never
  // gets a title still fails here.
  await expect.poll(() => page.title(), { message: `${page.url()} has no <title>` }).not.toBe("");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join("\n  ")}`);
  expect(summary, `axe found violations on ${page.url()}`).toEqual([]);
}

const shotsDir = path.join(__dirname, "screenshots");

/** Writes e2e/screenshots/<name>-1280.png and -390.png (full page), then restores the viewport. */
export async function screenshots(page: Page, name: string) {
  fs.mkdirSync(shotsDir, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    // why: let the layout settle at the new width before the picture.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}

/** A loopback address of its own for each test's browser (the sign-in limit counts per address). */
export const randomClientAddress = () => `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;

export const test = base.extend<{ clientAddress: string }>({
  // why `provide`: Playwright calls it `use`, which React's lint rules take for the hook.
  baseURL: async ({}, provide) => provide(baseURL()),
  clientAddress: async ({}, provide) => provide(randomClientAddress()),
  extraHTTPHeaders: async ({ clientAddress }, provide) => provide({ "x-forwarded-for": clientAddress }),
});

export { expect };
