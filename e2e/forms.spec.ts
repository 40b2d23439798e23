import { systemCtx } from "../lib/auth/context";
import * as templates from "../lib/templates";
import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * A newcomer's forms: a refusal is worded in plain sentences, the same in every form ("Enter a
 * name.", never the validator's "Too small: expected string to have >=1 characters"; keys.spec.ts
 * checks the API key form says the same), and a name
 * typed or pasted up to its limit says where the limit is instead of being cut silently.
 */

const validatorWording = /Too small|Too big|expected string|Invalid input|>=|<=/;

test("creating a template: an empty name says 'Enter a name.', and a pasted name too long says the limit", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password, "/templates");
  await page.getByRole("button", { name: "Create template" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create a template" });

  await dialog.getByRole("button", { name: "Create and open" }).click();
  const name = dialog.getByRole("textbox", { name: "Name" });
  await expect(name).toHaveAccessibleDescription("Enter a name.");
  await expect(dialog).not.toContainText(validatorWording);
  await checkA11y(page);
  await screenshots(page, "form-errors");

  // Pasted: the field keeps its 120 characters and says that is the limit.
  await name.focus();
  await page.keyboard.insertText("Quarterly statement for ".repeat(6));
  await expect(name).toHaveValue("Quarterly statement for ".repeat(6).slice(0, 120));
  await expect(dialog.getByText("120 of 120 characters: the limit. Anything longer is cut off.")).toBeVisible();
  await expect(name).toHaveAccessibleDescription(/120 of 120 characters: the limit/);
  await screenshots(page, "form-name-at-limit");
  // Below the last fifth the counter goes away.
  await name.fill("Invoice");
  await expect(dialog.getByText(/of 120 characters/)).toHaveCount(0);
});

test("the template editor keeps Save beside Versions and Publish at 1280 px, whatever the template's name", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const name = "Quarterly statement for customers with a very long name that goes on ".repeat(2).trim().slice(0, 120);
  const t = await templates.createTemplate(systemCtx(member.workspaceId, "e2e"), { name, content: { composition: { root: { type: "text", text: "Hello" } } } });
  await signIn(page, member.email, member.password, `/templates/${t.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const top = async (button: string) => (await page.getByRole("button", { name: button, exact: true }).boundingBox())!.y;
  await expect.poll(async () => [await top("Versions"), await top("Publish"), await top("Save")].every((y, _, all) => Math.abs(y - all[0]!) < 2)).toBe(true);
  await screenshots(page, "template-editor-long-name");
});
