import { createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * The create dialog's Handlebars starters (issue 34: a newcomer looked for an invoice, a report
 * and a letter to begin from): picked in the dialog, each opens as a whole document that its own
 * sample data previews at once.
 */
test.describe.configure({ timeout: 180_000 });

test("a member starts a Handlebars template from the invoice starter and sees the invoice at once", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password, "/templates");
  await page.getByRole("button", { name: "Create template" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create a template" });
  await dialog.getByLabel("Name").fill("Northwind Studio invoices");
  await dialog.getByLabel("Kind").click();
  await page.getByRole("option", { name: /^Handlebars/ }).click();
  await dialog.getByLabel("Start from").click();
  for (const name of [/^Basic/, /^Invoice/, /^Report/, /^Letter/]) await expect(page.getByRole("option", { name })).toBeVisible();
  await page.getByRole("option", { name: /^Invoice/ }).click();
  await screenshots(page, "hbs-create-starter");
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await page.waitForURL(/\/templates\/tpl_/);
  await expect(page.getByRole("img", { name: /^Page 1 of \d+$/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("textbox", { name: "template.html", exact: true })).toContainText("Invoice {{number}}", { timeout: 30_000 });
  await screenshots(page, "hbs-editor-invoice-starter");
});
