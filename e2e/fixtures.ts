import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import type Axe from "axe-core";
import { encode } from "next-auth/jwt";
import { systemCtx } from "../lib/auth/context";
import { authOptions } from "../lib/sessions";
import { db } from "../lib/db/client";
import type { Role } from "../lib/db/schema";
import { TEST_ADMIN } from "../lib/testing/global-setup";
import { FROM_ADDRESS } from "../lib/testing/people";
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
  const owner = await verifyCredentials(OWNER.email, OWNER.password, FROM_ADDRESS);
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
  // why so long, with words a line cannot break: some people's names and addresses are, and every journey's
  // layout check (pageChecks, below) must see the console hold them in the header, tables and menus without
  // the page scrolling sideways.
  const email = `${opts.role.replace("_", "-")}-${randomBytes(4).toString("hex")}.maximiliana.wolfeschlegelsteinhausenbergerdorff@accounts-payable.e2e.folio.test`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const name =
    opts.name ??
    `${opts.role === "content_editor" ? "Content editor" : opts.role[0]!.toUpperCase() + opts.role.slice(1)} ${randomBytes(2).toString("hex")} Maximiliana Wolfeschlegelsteinhausenbergerdorff`;
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

/**
 * Signs in with the two requests the sign-in page makes (next-auth's CSRF token, then the
 * credentials), from the page's own context so that the session cookie lands in it, and opens
 * `next`, the home page by default, where the page would have gone. why not through the page:
 * loading and hydrating the sign-in page cost about 1 s of CPU a journey on two cores, for a page
 * auth.spec.ts signs in through (signInThroughPage) and the roles journey checks signed out.
 */
export async function signIn(page: Page, email: string, password: string, next = "/") {
  const origin = new URL(baseURL()).origin;
  const csrf = await page.request.get("/api/auth/csrf");
  expect(csrf.status(), "GET /api/auth/csrf").toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // The browser's Origin, which lib/http/auth-guard.ts checks on next-auth's POSTs.
  const res = await page.request.post("/api/auth/callback/credentials", { form: { csrfToken, email, password, callbackUrl: next, json: "true" }, headers: { origin } });
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const refused = !res.ok() || !body.url || new URL(body.url, origin).searchParams.has("error");
  expect(refused, `signing in as ${email} answered ${res.status()} ${JSON.stringify(body)}`).toBe(false);
  await page.goto(next);
}

/** Signs in through the sign-in page, as a person does, and waits to land in the console. */
export async function signInThroughPage(page: Page, email: string, password: string, next?: string) {
  await page.goto(next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname !== "/sign-in");
}

const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const axeTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Fails on any serious or critical axe violation (WCAG 2.1 A and AA rules), naming each. Checks the console's
 * document, not what its frames show (a preview frame holds the template's own document).
 */
export async function checkA11y(page: Page) {
  // why: a page that is re-rendering after a server action may be between titles for a moment; one that never
  // gets a title still fails here.
  await expect.poll(() => page.title(), { message: `${page.url()} has no <title>` }).not.toBe("");
  // why not @axe-core/playwright: its analyze() sends axe's 650 kB into every frame and into a new tab it
  // opens to merge the frames' results, and returns every rule's passing nodes too: 1.7 s a check, 60% of
  // the roles journey. Here axe is sent once per document and only the violations come back.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const bad = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof Axe }).axe;
    const results = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"], iframes: false });
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join("\n  ")}`);
  }, axeTags);
  expect(bad, `axe found violations on ${page.url()}`).toEqual([]);
}

const shotsDir = path.join(__dirname, "screenshots");
// why opt-in: writing two full-page pictures of every page took about a fifth of the journeys' time on
// two cores, and nobody reads them in CI. FOLIO_SCREENSHOTS=1 writes them; the width checks run always.
const keepScreenshots = process.env.FOLIO_SCREENSHOTS === "1";

/**
 * At 1280 and 390 px the page must not scroll sideways; with FOLIO_SCREENSHOTS=1 it also writes
 * e2e/screenshots/<name>-1280.png and -390.png (full page). Restores the viewport afterwards.
 */
export async function screenshots(page: Page, name: string) {
  fs.mkdirSync(shotsDir, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    // why: let the layout settle at the new width before the picture.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (keepScreenshots) await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
    const wide = await sideScroll(page);
    expect(wide, `${page.url()} scrolls sideways at ${width} px`).toBeNull();
  }
  await page.setViewportSize(before);
}

/**
 * In each page's top document (an init script): reports through `__folioSideScroll` whenever the page has
 * been wider than its window for a moment (after a change settles: 300 ms without DOM changes, or two
 * frames after a resize), naming the outermost elements that reach past it.
 */
function watchSideScroll() {
  if (window !== window.top) return;
  const w = window as unknown as { __folioSideScroll?: (report: string) => void; __folioWideNow?: () => string | null };
  const wideNow = () => {
    const root = document.scrollingElement ?? document.documentElement;
    if (!root || root.scrollWidth <= window.innerWidth) return null;
    // why scrollWidth too: text overflowing a narrow box widens the page while the box's own rectangle fits.
    const past = [...document.body.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().left + Math.max(e.getBoundingClientRect().width, e.scrollWidth) > window.innerWidth + 1);
    const outermost = past.filter((e) => !past.some((o) => o !== e && o.contains(e)));
    const describe = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}.${[...e.classList].slice(0, 4).join(".")} (${Math.round(e.getBoundingClientRect().right)} px)`;
    return `${location.pathname}${location.search} is ${root.scrollWidth} px wide in a ${window.innerWidth} px window; wider: ${outermost.slice(0, 5).map(describe).join(", ")}`;
  };
  w.__folioWideNow = wideNow;
  let last: string | null = null;
  const check = () => {
    const wide = wideNow();
    if (wide && wide !== last) w.__folioSideScroll?.(wide);
    last = wide;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  };
  const start = () => {
    new MutationObserver(settle).observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    settle();
  };
  window.addEventListener("resize", () => requestAnimationFrame(() => requestAnimationFrame(check)));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}

/** What widens the page now, or null when it fits its window. */
async function sideScroll(page: Page): Promise<string | null> {
  return page.evaluate(() => (window as unknown as { __folioWideNow?: () => string | null }).__folioWideNow?.() ?? null);
}

/**
 * Messages the browser logs as errors that a journey provokes on purpose; each is filtered narrowly.
 * Everything else logged as an error, and every uncaught exception, fails the journey.
 */
function expectedConsoleError(text: string, at: string, pageUrl: string) {
  const status = /^Failed to load resource: the server responded with a status of (4\d\d)\b/.exec(text)?.[1];
  if (!status) return false;
  const path = URL.canParse(at) ? new URL(at).pathname : "";
  // why each: Chromium logs every 4xx answer as an error, also one the page asked for and shows as designed.
  // A page the role may not open, or a link no longer valid, answers 403/404 (roles.spec.ts, the invitation and
  // reset pages): only the document the tab shows is let through, not a failing request the page makes.
  if (at === pageUrl) return true;
  // A wrong password (401) and the sign-in limit (429): the sign-in form shows next-auth's answer.
  if (path === "/api/auth/callback/credentials") return status === "401" || status === "429";
  // A save against an older revision (409): the editor's conflict dialog (Reload or Overwrite); a
  // template save the person's role refuses (403, their role changed while they edited): the editor's alert.
  if (/^\/v1\/templates\/[^/]+\/draft$/.test(path)) return status === "409" || status === "403";
  if (/^\/v1\/workspace-files\/[^/]+\/content$/.test(path)) return status === "409";
  // The preview of a draft that does not validate (400): the pane lists the problems at their paths.
  if (/^\/v1\/templates\/[^/]+\/preview$/.test(path)) return status === "400";
  // Publishing a Handlebars draft with a syntax error (400): the editor marks it at its tab and line.
  if (/^\/v1\/templates\/[^/]+\/versions$/.test(path)) return status === "400";
  return false;
}

/** A loopback address of its own for each test's browser (the sign-in limit counts per address). */
export const randomClientAddress = () => `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** What one test's checks collect; the worker's shared context reports into the running test's. */
type Checks = { problems: string[] };

/**
 * One browser tab per Playwright worker, which each test gets as `page` (in `context`) as a fresh browser would
 * be: no cookies, no permissions, no storage, no listeners or routes of the test before, at 1280 x 800 on
 * about:blank, with a client address of its own. why not a new context and tab for each test: in Debian's full
 * Chromium a new tab cost about 0.6 s of CPU (its render process and the browser's side of a tab) and 0.2 s more
 * at its first query (Playwright's script compiled afresh), and each test's first page compiled the console's
 * scripts again: the journeys took 436–477 s of CPU with a tab each, 313 s with one per worker. A test that needs a second person opens a context of its own.
 */
type Shared = { context: BrowserContext; page: Page; checks: Checks };

export const test = base.extend<{ clientAddress: string; pageChecks: void; checks: Checks }, { shared: Shared }>({
  // why `provide`: Playwright calls it `use`, which React's lint rules take for the hook.
  baseURL: async ({}, provide) => provide(baseURL()),
  clientAddress: async ({}, provide) => provide(randomClientAddress()),
  extraHTTPHeaders: async ({ clientAddress }, provide) => provide({ "x-forwarded-for": clientAddress }),
  shared: [
    async ({ browser }, provide) => {
      const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 800 } });
      const checks: Checks = { problems: [] };
      await watchContext(context, checks);
      const page = await context.newPage();
      page.removeAllListeners(); // each test's `page` watches it anew
      await provide({ context, page, checks });
      await context.close();
    },
    { scope: "worker" },
  ],
  checks: async ({ shared }, provide) => {
    shared.checks.problems = [];
    await provide(shared.checks);
  },
  context: async ({ shared, extraHTTPHeaders }, provide) => {
    const { context } = shared;
    await context.clearCookies();
    await context.clearPermissions();
    await context.setExtraHTTPHeaders(extraHTTPHeaders ?? {});
    await provide(context);
  },
  // Playwright's screenshot of a failed test (and its trace, FOLIO_E2E_TRACE=1) covers this tab as any other.
  page: async ({ shared, context, checks }, provide) => {
    const { page } = shared;
    await page.setViewportSize({ width: 1280, height: 800 });
    watchPage(page, checks);
    await provide(page);
    // Leave nothing to the next test: its listeners and routes go, the page's storage is cleared, and the tab
    // leaves the page (accepting an unsaved-changes prompt) for about:blank.
    page.removeAllListeners();
    await page.unrouteAll({ behavior: "ignoreErrors" });
    for (const extra of context.pages()) if (extra !== page) await extra.close({ runBeforeUnload: false });
    if (page.url().startsWith(new URL(baseURL()).origin)) {
      await page.evaluate(() => (localStorage.clear(), sessionStorage.clear())).catch(() => {});
    }
    page.on("dialog", (d) => void (d.type() === "beforeunload" ? d.accept() : d.dismiss()));
    await page.goto("about:blank");
    page.removeAllListeners();
  },
  /**
   * Every journey, on every page it opens: no uncaught exception, nothing logged as an error (but the
   * expected ones above), and no page wider than its window, checked whenever a page settles, at each
   * width `screenshots` takes, and at the test's end.
   */
  pageChecks: [
    // why `page` too: its teardown leaves the test's last page for about:blank, which must come after the check below.
    async ({ context, browser, checks, page }, provide) => {
      void page;
      const problems = checks.problems;
      const contexts = [context];
      // why: a journey with a second person (an invitee, another workspace's member) opens a context of its own.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const c = await newContext(options);
        await watchContext(c, checks);
        contexts.push(c);
        return c;
      };
      try {
        await provide();
      } finally {
        browser.newContext = newContext;
      }
      for (const page of contexts.flatMap((c) => c.pages())) {
        if (page.isClosed()) continue;
        const wide = await sideScroll(page).catch(() => null);
        if (wide) problems.push(`side scroll at the end: ${wide}`);
      }
      // The test's other contexts go with it: their pages would go on running (a list refreshing itself) beside
      // the worker's next tests, and report into their checks.
      await Promise.all(contexts.slice(1).map((c) => c.close()));
      expect(problems, "the browser's errors and the pages wider than their window").toEqual([]);
    },
    { auto: true },
  ],
});

/** Collects into `checks.problems` what `pageChecks` refuses, from every page of `context`. */
async function watchContext(context: BrowserContext, checks: Checks) {
  await context.exposeBinding("__folioSideScroll", ({ page }, report: string) => {
    if (!page.isClosed()) checks.problems.push(`side scroll: ${report}`);
  });
  await context.addInitScript(watchSideScroll);
  context.pages().forEach((page) => watchPage(page, checks));
  context.on("page", (page) => watchPage(page, checks));
}

/** Uncaught exceptions and errors logged on `page` go into `checks.problems`. */
function watchPage(page: Page, checks: Checks) {
  page.on("pageerror", (e) => checks.problems.push(`uncaught error on ${page.url()}: ${e.stack ?? e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error" || expectedConsoleError(m.text(), m.location().url, page.url())) return;
    checks.problems.push(`console error on ${page.url()}: ${m.text()}${m.location().url ? ` (${m.location().url})` : ""}`);
  });
}

export { expect };
