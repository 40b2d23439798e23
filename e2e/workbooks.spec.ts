import type { Page } from "@playwright/test";
import fs from "node:fs";
import { invoiceWorkbook, readWorkbook } from "../lib/testing/workbooks";
import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * Workbook templates in the console: a member uploads a workbook with placeholders on the Assets
 * page, creates a workbook template from it, reads its placeholders beside the sample data, fills
 * in sample data, downloads the XLSX preview and finds the data in its cells with the repeated
 * rows, saves and publishes; exports the workspace, and another workspace's member imports it after
 * reading what it would change.
 */

test.describe.configure({ timeout: 120_000 });

/** Replaces the whole of a code tab's text as a person pasting over it would. */
async function replaceCode(page: Page, label: string, text: string) {
  const box = page.getByRole("textbox", { name: label, exact: true });
  await expect(box).toBeVisible({ timeout: 30_000 }); // CodeMirror loads after the page
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

const sample = { number: "INV-7", customer: { name: "Northwind Traders" }, lines: [{ name: "Paper", qty: 2, price: 3.5 }, { name: "Ink", qty: 1, price: 20 }, { name: "Pens", qty: 10, price: 0.25 }] };

test("a member uploads a workbook, sees its placeholders beside the sample data, downloads the filled XLSX and publishes", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password, "/assets");
  await page.getByLabel("Choose files").setInputFiles([{ name: "Invoice.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: invoiceWorkbook() }]);
  await expect(page.getByRole("list", { name: "Uploads" }).getByRole("listitem").filter({ hasText: "Invoice.xlsx" }).getByText("Uploaded")).toBeVisible();

  await page.goto("/templates");
  await page.getByRole("button", { name: "Create template" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create a template" });
  await dialog.getByLabel("Name").fill("Invoice workbook");
  await dialog.getByLabel("Kind").click();
  await page.getByRole("option", { name: "Workbook (XLSX)" }).click();
  await expect(dialog.getByLabel("Workbook")).toContainText("Invoice.xlsx");
  await expect(dialog.getByLabel("Page size")).toHaveCount(0);
  await checkA11y(page);
  await screenshots(page, "workbook-create-dialog");
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await page.waitForURL(/\/templates\/tpl_/);
  await expect(page.getByRole("heading", { level: 1, name: "Invoice workbook" })).toBeVisible();

  // The placeholders, by sheet and cell, with the repeated row.
  const list = page.getByRole("list", { name: "Placeholders by sheet" });
  await expect(list).toContainText("Sheet Invoice");
  await expect(list).toContainText("Row 4 repeats for each of lines");
  await expect(list.getByText("Invoice {{number}}")).toBeVisible();
  await expect(list.getByText("Thank you, {{customer.name}}!")).toBeVisible();

  await replaceCode(page, "Sample data", JSON.stringify(sample, null, 2));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved revision 2", { exact: true })).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download XLSX preview" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("Invoice workbook.xlsx");
  const cells = readWorkbook(fs.readFileSync((await file.path())!)).cells("xl/worksheets/sheet1.xml");
  expect(cells.get("A1")!.value).toBe("Invoice INV-7");
  expect([4, 5, 6].map((r) => cells.get(`A${r}`)!.value)).toEqual(["Paper", "Ink", "Pens"]);
  expect(cells.get("D8")!.formula).toBe("SUM(D4:D6)");
  expect(cells.get("A10")!.value).toBe("Thank you, Northwind Traders!");

  // Bad sample data is said where it is typed, and the preview names it instead of downloading.
  await replaceCode(page, "Sample data", "{ not json");
  await expect(page.getByRole("alert").filter({ hasText: "The sample data is not JSON" }).first()).toBeVisible();
  await replaceCode(page, "Sample data", JSON.stringify(sample, null, 2));

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1").first()).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "workbook-editor");

  // Versions: the ready request is the Reports API's (a workbook makes no render), and a version has no PDF to preview.
  await page.getByRole("button", { name: "Versions" }).click();
  const versions = page.getByRole("dialog", { name: "Published versions" });
  await expect(versions).toContainText("A workbook template renders as XLSX through the Reports API");
  await versions.getByText("Ready request (curl)").click();
  const request = versions.getByLabel("Request rendering version 1");
  await expect(request).toContainText("/v1/reports/render");
  await expect(request).toContainText('"format":"xlsx","template":{"name":"Invoice workbook"}');
  await versions.getByRole("button", { name: "Open version 1" }).click();
  const version = page.getByRole("dialog", { name: "Version 1" });
  await expect(version.getByRole("tab", { name: "Content (read-only)" })).toBeVisible();
  await expect(version.getByRole("tab", { name: "Render with sample data" })).toHaveCount(0);
  await checkA11y(page);
  await page.keyboard.press("Escape");

  // The templates list says its kind; the workspace exports as a zip.
  await page.goto("/templates");
  await expect(page.getByRole("row").filter({ hasText: "Invoice workbook" })).toContainText("Workbook");
  const exporting = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export" }).click();
  const zip = await exporting;
  expect(zip.suggestedFilename()).toBe("workspace.zip");
  const zipPath = (await zip.path())!;

  // Another workspace's member imports it after reading what it would change.
  const other = await createPerson({ role: "member" });
  await page.context().clearCookies();
  await signIn(page, other.email, other.password, "/templates");
  await page.getByRole("button", { name: "Import" }).click();
  const dialog2 = page.getByRole("dialog", { name: "Import into the workspace" });
  await dialog2.getByLabel("Export to import (.zip)").setInputFiles(zipPath);
  const changes = dialog2.getByRole("region", { name: "What the import would change" });
  await expect(changes).toContainText("2 changes to the workspace");
  await expect(changes.getByRole("listitem").filter({ hasText: "Template" }).filter({ hasText: "Invoice workbook" })).toContainText("New");
  await expect(changes.getByRole("listitem").filter({ hasText: "Invoice.xlsx" })).toContainText("New");
  await checkA11y(page);
  await screenshots(page, "import-dialog");
  await dialog2.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByText("Imported", { exact: true })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Invoice workbook" })).toContainText("Workbook");
  // Imported again: nothing would change.
  await page.getByRole("button", { name: "Import" }).click();
  await dialog2.getByLabel("Export to import (.zip)").setInputFiles(zipPath);
  await expect(dialog2.getByText("Nothing would change")).toBeVisible();
  await expect(dialog2.getByRole("button", { name: "Import", exact: true })).toBeDisabled();
});
