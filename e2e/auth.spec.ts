import { addToWorkspace, baseURL, checkA11y, createPerson, expect, expiredSessionCookie, newWorkspace, screenshots, signIn, signInThroughPage, test } from "./fixtures";

/** Sign-in, sign-out, coming back after the session ends, and switching workspace from the header. */

test("a wrong password says so; the right one signs in", async ({ page }) => {
  const person = await createPerson({ role: "member" });
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email or password is wrong.")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await checkA11y(page);
  await screenshots(page, "sign-in-wrong-password");

  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test("a signed-out visit goes to sign-in and, after it, back to the page asked for", async ({ page, context }) => {
  const person = await createPerson({ role: "admin" });
  const res = await page.goto("/?from=bookmark");
  expect(new URL(page.url()).pathname).toBe("/sign-in");
  expect(new URL(page.url()).searchParams.get("next")).toBe("/?from=bookmark");
  expect(res?.status()).toBe(200);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/" && u.search === "?from=bookmark");

  // The session cookie removed (as when it expires): the next page asks to sign in again, then comes back.
  await context.clearCookies();
  await page.goto("/?again=1");
  await expect(page).toHaveURL(/\/sign-in\?next=%2F%3Fagain%3D1$/);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/" && u.search === "?again=1");
});

test("an expired session sends the person to sign-in, then back to the page", async ({ page, context }) => {
  const person = await createPerson({ role: "member" });
  await context.addCookies([await expiredSessionCookie(person)]);
  await page.goto("/?after=expiry");
  await expect(page).toHaveURL(/\/sign-in\?next=%2F%3Fafter%3Dexpiry$/);
  await expect(page.getByText("Sign in to continue where you were.")).toBeVisible();
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/" && u.search === "?after=expiry");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();
});

test("next is only ever a path of the console (no open redirect)", async ({ page }) => {
  const person = await createPerson({ role: "member" });
  for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
    await page.context().clearCookies();
    await signInThroughPage(page, person.email, person.password, next);
    expect(new URL(page.url()).origin).toBe(new URL(baseURL()).origin);
    await expect(page).toHaveURL((u) => u.pathname === "/" && u.host !== "evil.example");
  }
});

test("sign out ends the session and returns to sign-in", async ({ page }) => {
  const person = await createPerson({ role: "owner" });
  await signIn(page, person.email, person.password);
  await page.getByRole("button", { name: person.name }).click();
  await expect(page.getByRole("menu")).toContainText(person.email);
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.waitForURL((u) => u.pathname === "/sign-in");
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("a person in two workspaces switches from the header, and the choice survives a reload", async ({ page }) => {
  const first = await newWorkspace(`Acme ${Date.now() % 10000}`);
  const second = await newWorkspace(`Globex ${Date.now() % 10000}`);
  const person = await createPerson({ role: "admin", workspaceId: first.id });
  await addToWorkspace(person, second.id, "content_editor");
  await signIn(page, person.email, person.password);
  const switcher = page.getByRole("button", { name: /Switch workspace/ });
  await expect(switcher).toContainText(first.name);
  await switcher.click();
  await expect(page.getByRole("menuitem", { name: new RegExp(second.name) })).toContainText("content editor");
  await checkA11y(page);
  await screenshots(page, "workspace-switcher");
  await page.getByRole("menuitem", { name: new RegExp(second.name) }).click();
  await expect(page.getByRole("button", { name: /Switch workspace/ })).toContainText(second.name);
  await expect(page.getByRole("heading", { level: 1, name: `Welcome to ${second.name}` })).toBeVisible();
  // The role follows the workspace: a content editor has no People link.
  await expect(page.getByRole("link", { name: "People" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: /Switch workspace/ })).toContainText(second.name);
});

test("at 390 px the navigation is behind a menu button", async ({ page }) => {
  const person = await createPerson({ role: "owner" });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, person.email, person.password);
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  // The navigation's links, not the home page's own link to the templates.
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Templates" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API keys" })).toBeVisible();
  await checkA11y(page);
  await page.screenshot({ path: "e2e/screenshots/mobile-menu-open-390.png" });
});

test("the skip link leads to the page's content", async ({ page }) => {
  const person = await createPerson({ role: "member" });
  await signIn(page, person.email, person.password);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
});

test("after 10 failed attempts in a minute the 11th says to wait", async ({ page, clientAddress }) => {
  // All attempts must fall in one clock minute: in its last 20 s, wait for the next one.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute >= 40_000) await page.waitForTimeout(60_000 - intoMinute + 200);
  const person = await createPerson({ role: "member" });
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(person.email);
  // The first attempt through the form, as a person makes it.
  await page.getByLabel("Password").fill("wrong-0");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email or password is wrong.")).toBeVisible();
  // why the next nine over HTTP: through the form, ten attempts on a busy machine can outlast the
  // clock minute the limit counts in. They come from the same address (the context's X-Forwarded-For).
  const origin = new URL(page.url()).origin;
  for (let i = 1; i < 10; i++) {
    const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await page.request.post("/api/auth/callback/credentials", {
      headers: { origin, "x-forwarded-for": clientAddress },
      form: { csrfToken, email: person.email, password: `wrong-${i}`, json: "true" },
    });
    expect(res.status(), `attempt ${i + 1}`).toBe(401);
  }
  // The 11th, with the right password, is refused before the password is checked.
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/^Too many sign-in attempts from your address; try again in \d+ seconds\.$/)).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await screenshots(page, "sign-in-too-many-attempts");
});
