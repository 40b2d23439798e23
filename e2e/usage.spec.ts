import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/** The usage page: render limits as meters with what is in use, and usage by day over a chosen range. */
test("a member sees the workspace's render limits in use and its usage by day, and changes the range", async ({ page }) => {
  test.slow(); // a render and a browser on a machine shared with the server, the worker and PostgreSQL
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password);
  const { secret } = await createKeyAsSystem(systemCtx(member.workspaceId, "e2e"), "usage", ["render:create", "render:read"], null);
  const render = await page.request.post("/v1/renders", { data: { document: { html: "<p>usage</p>" }, waitMs: 20_000 }, headers: { "x-api-key": secret } });
  expect(render.status()).toBeLessThan(300);

  await page.goto("/usage");
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(page.getByRole("meter", { name: "Active renders" })).toHaveAttribute("aria-valuemax", "10");
  await expect(page.getByRole("meter", { name: "Renders in the last minute" })).toHaveAttribute("aria-valuenow", "1");
  await expect(page.getByRole("meter", { name: "Documents this month" })).toHaveAttribute("aria-valuetext", "1 (unlimited)");
  const today = new Date().toISOString().slice(0, 10);
  const rows = page.getByRole("region", { name: "Usage by day" }).getByRole("row");
  await expect(rows.filter({ hasText: today })).toHaveCount(1);
  await checkA11y(page);
  await screenshots(page, "usage");
  await expectNoSideScroll(page);

  await page.getByLabel("From", { exact: true }).fill("2020-01-01");
  await page.getByLabel("To", { exact: true }).fill("2020-01-31");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/usage\?from=2020-01-01&to=2020-01-31$/);
  await expect(page.getByText("No usage in this range")).toBeVisible();

  await page.goto("/usage?from=2020-01-01&to=2021-06-01");
  await expect(page.getByText("This range cannot be shown")).toBeVisible();
  await checkA11y(page);
});
