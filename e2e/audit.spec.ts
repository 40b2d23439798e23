import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/** The audit log: a person's changes appear with their email; filters by actor and action; details expand. */
test("an owner's key changes appear in the audit log, filtered by action and by actor, with details", async ({ page }) => {
  test.slow(); // renders and a browser on a machine shared with the server, the worker and PostgreSQL
  const owner = await createPerson({ role: "owner" });
  await signIn(page, owner.email, owner.password);
  // Seed through the API with the person's session, as the console's own requests are made.
  const origin = new URL(page.url()).origin;
  for (const name of ["Exporter", "Importer"]) {
    const res = await page.request.post("/v1/api-keys", { data: { name, scopes: ["render:read"] }, headers: { origin } });
    expect(res.status()).toBe(201);
  }

  await page.goto("/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const rows = page.getByRole("region", { name: "Audit events" }).getByRole("row");
  await expect(rows.filter({ hasText: "api_key.create" })).toHaveCount(2);
  await expect(rows.filter({ hasText: "user.create" })).toHaveCount(1);
  await checkA11y(page);
  await screenshots(page, "audit");
  await expectNoSideScroll(page);

  await page.getByRole("combobox", { name: "Action" }).click();
  await page.getByRole("option", { name: "api_key.create" }).click();
  await expect(page).toHaveURL(/\/audit\?action=api_key\.create$/);
  await expect(rows).toHaveCount(3); // the header and the two creations
  const first = rows.nth(1);
  await expect(first).toContainText(owner.email);
  await first.getByText("Details").click();
  await expect(first).toContainText('"name": "Importer"');

  await page.getByRole("combobox", { name: "Action" }).click();
  await page.getByRole("option", { name: "All actions" }).click();
  await page.getByRole("combobox", { name: "Actor" }).click();
  await page.getByRole("option", { name: "System" }).click();
  await expect(page).toHaveURL(/\/audit\?actorId=/);
  await expect(rows.filter({ hasText: "user.create" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "api_key.create" })).toHaveCount(0);
  await checkA11y(page);
  await screenshots(page, "audit-filtered");
});
