import type { Page } from "@playwright/test";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import * as templates from "../lib/templates";
import { pdfImages, pdfText } from "../lib/testing/pdf";
import { seedAsset, seedStylesheet, solidPng } from "../lib/testing/template-files";
import { scopes } from "../lib/auth/scopes";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * A template's stylesheets, images and translation files in the console editor: a member ticks a
 * workspace stylesheet, picks an uploaded image for a new image component, uploads another in the
 * picker to replace it, and adds German and French translations, sees each in the live preview,
 * saves and publishes; the published version renders with all three.
 */

// why longer: the journey renders many previews on a shared 2-core machine.
test.describe.configure({ timeout: 240_000 });

const firstPage = (page: Page) => page.getByRole("img", { name: /^Page 1 of \d+$/ });

/** Runs `change` and waits until the preview shows a new first page (other than `before`, by default the one shown now). */
async function previewChanges(page: Page, change: () => Promise<void>, before?: string | null) {
  before ??= await firstPage(page).getAttribute("src");
  const rendered = page.waitForResponse((r) => r.url().includes("/preview") && r.request().method() === "POST" && r.status() === 200, { timeout: 60_000 });
  await change();
  await rendered;
  await expect(firstPage(page)).not.toHaveAttribute("src", before!, { timeout: 30_000 });
}

async function replaceEditorText(page: Page, name: string, text: string) {
  const box = page.getByRole("textbox", { name });
  await expect(box).toBeVisible({ timeout: 30_000 });
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

test("a member ticks a stylesheet, picks an image and adds a translation, sees each in the preview, and publishes them", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const ws = member.workspaceId;
  const ctx = systemCtx(ws, "e2e");
  // Set up through the API, with a key of the workspace.
  const owner = { id: ws, key: (await createKeyAsSystem(ctx, "e2e set-up", scopes, null)).secret, baseUrl: baseURL() };
  await seedStylesheet(owner, null, "brand.css", ".headline{font-size:40px;color:#b91c1c} .headline::after{content:' (branded)'}");
  await seedStylesheet(owner, null, "print-extras.css", ".unused{color:green}");
  await seedAsset(owner, { kind: "image", filename: "logo.png", mediaType: "image/png", bytes: await solidPng(120, 48, [37, 99, 235]) });
  const t = await templates.createTemplate(systemCtx(ws, "e2e"), {
    name: "Branded letter",
    content: {
      composition: { root: { type: "container", children: [{ type: "text", text: { path: ["localization", "greeting"], fallback: "Hello" }, className: "headline" }] } },
      settings: { locale: "de-AT" },
    },
  });

  await signIn(page, member.email, member.password, `/templates/${t.id}`);
  await expect(firstPage(page)).toBeVisible({ timeout: 30_000 });

  // Stylesheets: tick brand.css; the preview takes its look.
  await page.getByRole("tab", { name: "Stylesheets" }).click();
  await expect(page.getByRole("checkbox", { name: "print-extras.css" })).not.toBeChecked();
  await previewChanges(page, () => page.getByRole("checkbox", { name: "brand.css" }).click());
  await expect(page.getByRole("list").filter({ hasText: "brand.css" }).first()).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "template-stylesheets");

  // Images: a new image component showing the uploaded logo.
  await page.getByRole("tab", { name: "composition.json" }).click();
  const withoutImage = await firstPage(page).getAttribute("src"); // hidden from the accessibility tree while the dialog is open
  await page.getByRole("button", { name: "Images" }).click();
  const picker = page.getByRole("dialog", { name: "Pick an image" });
  await expect(picker.getByRole("button", { name: /^Use logo\.png/ })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "template-image-picker");
  await previewChanges(page, () => picker.getByRole("button", { name: /^Use logo\.png/ }).click(), withoutImage);
  await expect(page.getByText("Added logo.png at root.children.1").first()).toBeVisible();
  await expect(page.getByRole("textbox", { name: "composition.json" })).toContainText('"type": "image"');

  // An image uploaded in the picker replaces the logo in that component.
  const withLogo = await firstPage(page).getAttribute("src");
  await page.getByRole("button", { name: "Images" }).click();
  await picker.getByLabel("Put the image in").click();
  await page.getByRole("option", { name: /^root\.children\.1 \(ast_/ }).click();
  await picker.getByLabel("Choose files").setInputFiles({ name: "stamp.png", mimeType: "image/png", buffer: await solidPng(60, 30, [220, 38, 38]) });
  await expect(picker.getByText("Uploaded")).toBeVisible();
  await previewChanges(page, () => picker.getByRole("button", { name: /^Use stamp\.png/ }).click(), withLogo);
  await expect(page.getByText("root.children.1 now shows stamp.png").first()).toBeVisible();

  // Translations: a German file; the template's locale (de-AT) falls back to it.
  await page.getByRole("tab", { name: "Translations" }).click();
  await expect(page.getByRole("heading", { name: "No translation files" })).toBeVisible();
  await page.getByLabel("New translation's locale").fill("not a locale");
  await page.getByRole("button", { name: "Add translation" }).click();
  await expect(page.getByText("not a locale is not a language tag")).toBeVisible();
  await page.getByLabel("New translation's locale").fill("de");
  await page.getByRole("button", { name: "Add translation" }).click();
  await previewChanges(page, () => replaceEditorText(page, "Translation de", '{\n  "greeting": "Guten Tag"\n}'));
  await page.getByLabel("New translation's locale").fill("fr");
  await page.getByRole("button", { name: "Add translation" }).click();
  await replaceEditorText(page, "Translation fr", '{\n  "greeting": "Bonjour"\n}');
  await previewChanges(page, async () => {
    await page.getByLabel("Preview language").click();
    await page.getByRole("option", { name: "fr" }).click();
  });
  await checkA11y(page);
  await screenshots(page, "template-translations");

  // Save and publish: the version renders with the stylesheet, the image and the translation.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1").first()).toBeVisible();

  const [version] = (await templates.listVersions(ctx, t.id, { limit: 1, order: "desc" })).items;
  const draft = await templates.getDraft(ctx, t.id);
  expect(draft.content).toMatchObject({ composition: { stylesheets: ["brand.css"] }, translations: { de: { greeting: "Guten Tag" }, fr: { greeting: "Bonjour" } } });
  const res = await page.request.post("/v1/renders", { data: { templateVersionId: version!.id, data: {}, waitMs: 30_000 }, headers: { "x-api-key": owner.key } });
  expect(res.status(), await res.text()).toBe(200);
  const file = await page.request.get(((await res.json()) as { result: { downloadUrl: string } }).result.downloadUrl);
  const pdf = new Uint8Array(await file.body());
  expect(pdfText(pdf).replace(/\s+/g, " ")).toContain("Guten Tag (branded)");
  expect(pdfImages(pdf)).toEqual([{ page: 1, width: 60, height: 30 }]);
});
