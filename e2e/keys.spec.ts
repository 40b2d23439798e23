import { checkA11y, baseURL, createPerson, defaultWorkspaceId, expect, OWNER, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll, expectTableFits } from "./layout";

/**
 * API keys in the console: an admin creates a key, sees its secret once, and a program uses it
 * against /v1 (curl-equivalent fetch); rotation says the old secret keeps working 15 minutes and
 * both work; revocation stops a key; deletion removes one. The deploy key is marked Set by server.
 */

const api = (path: string, secret: string, init: RequestInit = {}) =>
  fetch(`${baseURL()}${path}`, { ...init, headers: { "x-api-key": secret, "content-type": "application/json", ...init.headers } });

test("an admin creates a key, renders Hello with it, rotates it (both secrets work), revokes the new one and deletes the old", async ({ page, context }) => {
  test.setTimeout(300_000); // a long journey, on a machine shared with the server, the worker and PostgreSQL
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const admin = await createPerson({ role: "admin" });
  await signIn(page, admin.email, admin.password);

  await page.goto("/api-keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No API keys yet" })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "api-keys-empty");

  await page.getByRole("button", { name: "Create key" }).click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name").fill("Billing service");
  await form.getByRole("button", { name: "Templates only" }).click();
  await expect(form.getByRole("checkbox", { name: "template:write" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "render:create" })).not.toBeChecked();
  await form.getByRole("button", { name: "Render only" }).click();
  await expect(form.getByRole("button", { name: "Render only" })).toHaveAttribute("aria-pressed", "true");
  await expect(form.getByRole("checkbox", { name: "render:create" })).toBeChecked();
  await form.getByRole("checkbox", { name: "audit:read" }).click(); // one more than the preset
  await form.getByLabel("30 days").check();
  await checkA11y(page);
  await screenshots(page, "api-keys-create");
  await form.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByRole("dialog", { name: "Your new API key" });
  await expect(shown.getByText("It will not be shown again")).toBeVisible();
  const secret = await shown.getByLabel("Secret").inputValue();
  expect(secret).toMatch(/^folio_[0-9A-Za-z]{40}$/);
  await shown.getByRole("button", { name: "Copy secret" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(shown.getByText(`x-api-key: ${secret}`)).toBeVisible(); // the getting-started curl, key written in
  await checkA11y(page);
  await screenshots(page, "api-keys-secret");
  await expectNoSideScroll(page);

  // A program uses it, as the curl does: render Hello and wait for it.
  const hello = await api("/v1/renders", secret, { method: "POST", body: JSON.stringify({ document: { html: "<h1>Hello</h1>" }, waitMs: 20_000 }) });
  expect(hello.status).toBe(200);
  expect(((await hello.json()) as { state: string }).state).toBe("succeeded");
  expect((await api("/v1/audit-events", secret)).status).toBe(200);
  expect((await api("/v1/templates", secret)).status).toBe(403); // outside its scopes

  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  const row = page.getByRole("row", { name: new RegExp(secret.slice(0, 8)) });
  await expect(row.getByText("Billing service")).toBeVisible();
  await expect(row.getByText("Active")).toBeVisible();
  await expect(row.getByText("render:create")).toBeVisible();

  // Rotate: the dialog says the old secret keeps working 15 minutes; both do.
  await row.getByRole("button", { name: "Rotate Billing service" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("15 minutes");
  await page.getByRole("alertdialog").getByRole("button", { name: "Rotate key" }).click();
  const rotated = page.getByRole("dialog", { name: "Key rotated" });
  await expect(rotated.getByText(/old secret keeps working for 15 minutes/)).toBeVisible();
  const fresh = await rotated.getByLabel("Secret").inputValue();
  expect(fresh).not.toBe(secret);
  await screenshots(page, "api-keys-rotated");
  await expectNoSideScroll(page);
  for (const s of [secret, fresh]) expect((await api("/v1/renders?limit=1", s)).status).toBe(200);
  await rotated.getByRole("button", { name: "Done" }).click();
  await expect(row.getByText("Rotated")).toBeVisible();
  await expect(row.getByRole("button", { name: /^Rotate/ })).toHaveCount(0);
  const freshRow = page.getByRole("row", { name: new RegExp(fresh.slice(0, 8)) });
  await expect(freshRow.getByText("Active")).toBeVisible();
  await expectTableFits(page, "API keys"); // a rotated key and an active one, with all three actions
  await screenshots(page, "api-keys-rotated-list");

  // Revoke the new key: it stops working within about a second, and stays listed as revoked.
  await freshRow.getByRole("button", { name: "Revoke Billing service" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(freshRow.getByText("Revoked")).toBeVisible();
  await expect.poll(async () => (await api("/v1/renders?limit=1", fresh)).status, { timeout: 5_000 }).toBe(401);
  expect((await api("/v1/renders?limit=1", secret)).status).toBe(200); // the old one is still in its 15 minutes

  // Delete the old key after confirming: it leaves the list and stops working.
  await row.getByRole("button", { name: "Delete Billing service" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("audit history stays");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete key" }).click();
  await expect(row).toHaveCount(0);
  await expect.poll(async () => (await api("/v1/renders?limit=1", secret)).status, { timeout: 5_000 }).toBe(401);
  await checkA11y(page);
  await screenshots(page, "api-keys");
  await expectNoSideScroll(page);
});

test("the form says what is wrong: no scope chosen", async ({ page }) => {
  test.slow(); // a browser on a machine shared with the server, the worker and PostgreSQL
  const owner = await createPerson({ role: "owner" });
  await signIn(page, owner.email, owner.password, "/api-keys?create=1"); // the home page's link opens the dialog at once
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name").fill("Nothing");
  for (const scope of ["render:create", "render:read", "render:cancel"]) await form.getByRole("checkbox", { name: scope }).click();
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByRole("alert")).toHaveText("Choose at least one scope.");
  await expect(form.getByRole("group", { name: "Scopes", exact: true })).toHaveAccessibleDescription("Choose at least one scope."); // beside the scopes
  await form.getByLabel("Name").fill("");
  await form.getByRole("checkbox", { name: "render:read" }).click();
  await form.getByRole("button", { name: "Create key" }).click();
  // The console's one voice for a missing name (lib/console/form-errors.ts), not the schema's own "give the key a name".
  await expect(form.getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription(/Enter a name\.$/);
  await checkA11y(page);
});

test("the deploy key is marked Set by server and offers only Revoke", async ({ page }) => {
  test.slow(); // a browser on a machine shared with the server, the worker and PostgreSQL
  expect(await defaultWorkspaceId()).toMatch(/^ws_/);
  await signIn(page, OWNER.email, OWNER.password, "/api-keys");
  const row = page.getByRole("row", { name: /Deploy key/ });
  await expect(row.getByText("Set by server")).toBeVisible();
  await expect(row.getByRole("button", { name: "Revoke Deploy key" })).toBeVisible();
  await expect(row.getByRole("button", { name: /^(Rotate|Delete)/ })).toHaveCount(0);
});
