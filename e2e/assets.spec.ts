import fs from "node:fs";
import path from "node:path";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/**
 * Assets in the console: a member uploads an image and a font with the file picker, an SVG by
 * dropping it and a large workbook whose progress shows; previews the image and the font (loaded
 * with FontFace through a fresh download link); is refused deleting the image a template uses, the
 * refusal naming the template; deletes the unused font.
 */

test.describe.configure({ timeout: 180_000 });

const INTER = fs.readFileSync(path.join(__dirname, "../node_modules/@fontsource/inter/files/inter-latin-400-normal.woff2"));
/** A 1 x 1 red PNG. */
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#0a7"/></svg>`;

test("a member uploads by picker and by drop, previews an image and a font, is refused deleting an image in use and deletes an unused font", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const key = await createKeyAsSystem(systemCtx(member.workspaceId, "e2e"), "e2e assets", ["template:write", "template:read", "asset:manage"], null);
  await signIn(page, member.email, member.password, "/assets");

  await expect(page.getByRole("heading", { level: 1, name: "Assets" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "No assets yet" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Assets" })).toHaveAttribute("aria-current", "page");
  await checkA11y(page);
  await screenshots(page, "assets-empty");

  // The file picker: an image and a font at once.
  await page.getByLabel("Choose files").setInputFiles([
    { name: "logo.png", mimeType: "image/png", buffer: PNG_1X1 },
    { name: "Inter.woff2", mimeType: "font/woff2", buffer: INTER },
  ]);
  const uploads = page.getByRole("list", { name: "Uploads" });
  await expect(uploads.getByRole("listitem").filter({ hasText: "logo.png" }).getByText("Uploaded")).toBeVisible();
  await expect(uploads.getByRole("listitem").filter({ hasText: "Inter.woff2" }).getByText("Uploaded")).toBeVisible();
  const table = page.getByRole("region", { name: "Assets", exact: true });
  const logoRow = table.getByRole("row").filter({ hasText: "logo.png" });
  const fontRow = table.getByRole("row").filter({ hasText: "Inter.woff2" });
  await expect(logoRow).toContainText("Image");
  await expect(logoRow).toContainText("Unused");
  await expect(fontRow).toContainText("Font");
  await expect(fontRow).toContainText(`${(INTER.byteLength / 1000).toFixed(1)} kB`);

  // A drop on the zone (a synthetic drop event carrying a file, as a browser's drag and drop does).
  const dropped = await page.evaluateHandle((svg) => {
    const dt = new DataTransfer();
    dt.items.add(new File([svg], "badge.svg", { type: "image/svg+xml" }));
    return dt;
  }, SVG);
  await page.getByTestId("asset-drop-zone").dispatchEvent("drop", { dataTransfer: dropped });
  await expect(uploads.getByRole("listitem").filter({ hasText: "badge.svg" }).getByText("Uploaded")).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "badge.svg" })).toContainText("SVG");

  // A large file shows its progress bar while it is checked and sent.
  // why from a file on disk: the browser reads a path itself, where a buffer's 30 MB would cross the protocol as
  // base64 and be decoded by script in the page (7 s of the journey alone, about 8 s of CPU).
  const big = path.join(test.info().outputDir, "Figures.xlsx");
  fs.mkdirSync(test.info().outputDir, { recursive: true });
  fs.writeFileSync(big, Buffer.alloc(30_000_000, 7));
  await page.getByLabel("Choose files").setInputFiles(big);
  const bigItem = uploads.getByRole("listitem").filter({ hasText: "Figures.xlsx" });
  await expect(bigItem.getByRole("progressbar", { name: "Upload of Figures.xlsx" })).toBeVisible();
  await expect(bigItem.getByText("Uploaded")).toBeVisible({ timeout: 60_000 });
  await expect(table.getByRole("row").filter({ hasText: "Figures.xlsx" })).toContainText("30.0 MB");

  // A file Folio does not take is refused beside its name, before any upload.
  await page.getByLabel("Choose files").setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
  await expect(uploads.getByRole("listitem").filter({ hasText: "notes.txt" }).getByRole("alert")).toContainText("Folio takes");

  // Thumbnails of images come through their download links.
  await expect(logoRow.locator("img")).toHaveJSProperty("naturalWidth", 1);
  await checkA11y(page);
  await screenshots(page, "assets-list");
  await expectNoSideScroll(page);

  // Preview the image.
  await logoRow.getByRole("button", { name: "Preview logo.png" }).click();
  const imageDialog = page.getByRole("dialog", { name: "logo.png" });
  const image = imageDialog.getByRole("img", { name: "Preview of logo.png" });
  await expect(image).toBeVisible();
  await expect(image).toHaveJSProperty("naturalWidth", 1);
  await checkA11y(page);
  await imageDialog.getByRole("button", { name: "Close" }).click();

  // Preview the font: loaded with FontFace, the sample line set in it.
  await fontRow.getByRole("button", { name: "Preview Inter.woff2" }).click();
  const fontDialog = page.getByRole("dialog", { name: "Inter.woff2" });
  const sample = fontDialog.getByTestId("font-sample");
  await expect(sample).toContainText("The quick brown fox");
  const family = await sample.evaluate((el) => getComputedStyle(el).fontFamily);
  expect(family).toMatch(/folio-preview-ast_/);
  expect(await page.evaluate((f) => document.fonts.check(`16px ${f.split(",")[0]}`), family)).toBe(true);
  expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.includes("folio-preview-ast_") && f.status === "loaded"))).toBe(true);
  await checkA11y(page);
  await screenshots(page, "assets-font-preview");
  await fontDialog.getByRole("button", { name: "Close" }).click();

  // A template (made through the API) shows the image: deleting it is refused, naming the template.
  const logoId = (await logoRow.locator("code").textContent())!.trim();
  const content = { composition: { root: { type: "container", children: [{ type: "image", assetId: logoId, width: 120 }] } } };
  const created = await fetch(`${baseURL()}/v1/templates`, {
    method: "POST",
    headers: { "x-api-key": key.secret, "content-type": "application/json" },
    body: JSON.stringify({ name: "Letterhead", content }),
  });
  expect(created.status).toBe(201);
  const templateId = ((await created.json()) as { id: string }).id;
  await page.reload();
  await expect(logoRow).toContainText("1 use");
  await logoRow.getByRole("button", { name: "Delete logo.png" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete “logo.png”?" });
  await confirm.getByRole("button", { name: "Delete asset" }).click();
  const refusal = confirm.getByRole("alert");
  await expect(refusal).toContainText("is in use");
  await expect(refusal).toContainText(`template ${templateId} (Letterhead) uses it in an image component of its draft`);
  await checkA11y(page);
  await screenshots(page, "assets-delete-refused");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(logoRow).toBeVisible();

  // The unused font goes.
  await fontRow.getByRole("button", { name: "Delete Inter.woff2" }).click();
  await page.getByRole("alertdialog", { name: "Delete “Inter.woff2”?" }).getByRole("button", { name: "Delete asset" }).click();
  await expect(page.getByText("“Inter.woff2” deleted", { exact: true })).toBeVisible();
  await expect(fontRow).toHaveCount(0);
  const list = await fetch(`${baseURL()}/v1/assets?kind=font`, { headers: { "x-api-key": key.secret } });
  expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
});
