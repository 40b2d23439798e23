import type { Page } from "@playwright/test";
import { createHash, randomBytes } from "node:crypto";
import { systemCtx } from "../lib/auth/context";
import { db } from "../lib/db/client";
import { newId } from "../lib/db/ids";
import { assets } from "../lib/db/schema";
import * as templates from "../lib/templates";
import * as files from "../lib/workspace-files";
import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * Workspace files in the console: the folder browser (create a folder and a stylesheet, refusals
 * of a non-empty folder and of a file in use, shown with what holds or uses them), the stylesheet
 * editor (save by revision, a conflict with a save made through the API), and a content editor's
 * read-only view.
 */

// why longer: the editor loads CodeMirror and the journey saves several times on a shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

const editorBox = (page: Page, name: string) => page.getByRole("textbox", { name });

/** A ready font asset, as an upload leaves it (this journey is about files, not uploads). */
async function seedFont(workspaceId: string, filename: string) {
  const sha256 = createHash("sha256").update(randomBytes(16)).digest("hex");
  await db().insert(assets).values({
    id: newId("ast"),
    workspaceId,
    kind: "font",
    filename,
    mediaType: "font/woff2",
    size: 48_213,
    sha256,
    state: "ready",
    createdByType: "system",
    createdById: "e2e",
    uploadedAt: new Date(),
  });
}

/** Replaces the editor's whole text as a person pasting over it would. */
async function replaceText(page: Page, name: string, text: string) {
  const box = editorBox(page, name);
  await expect(box).toBeVisible({ timeout: 30_000 }); // CodeMirror loads after the page
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

test("a member makes a folder and a stylesheet, edits it, meets a conflict, and is refused deleting what is in use", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const ctx = systemCtx(member.workspaceId, "e2e");
  await signIn(page, member.email, member.password, "/files");
  await expect(page.getByRole("heading", { level: 2, name: "No files yet" })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "files-empty");

  // A folder, then a stylesheet in it.
  await page.getByRole("button", { name: "New folder" }).click();
  const folderDialog = page.getByRole("dialog", { name: "New folder" });
  await folderDialog.getByLabel("Name").fill("brand");
  await folderDialog.getByRole("button", { name: "Create folder" }).click();
  await page.getByRole("link", { name: "brand", exact: true }).click();
  await expect(page.getByRole("heading", { level: 2, name: "brand is empty" })).toBeVisible();

  await page.getByRole("button", { name: "New stylesheet" }).click();
  const sheetDialog = page.getByRole("dialog", { name: "New stylesheet" });
  await expect(sheetDialog).toContainText("in brand");
  await sheetDialog.getByLabel("Name").fill("print");
  await sheetDialog.getByRole("button", { name: "Create and edit" }).click();
  await page.waitForURL(/\/files\/fil_/);
  const fileId = new URL(page.url()).pathname.split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1, name: "print.css" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Folder path" })).toContainText("brand");

  // Edit and save with Ctrl/Cmd+S.
  await replaceText(page, "print.css", ".total { color: #c00; }");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  await expect(page.getByText("Unsaved changes")).toBeHidden();
  await checkA11y(page);
  await screenshots(page, "file-editor");

  // Someone saves through the API meanwhile: this save meets a conflict, and Reload shows their text.
  await files.saveFileContent(ctx, fileId, { content: ".total { color: navy; } /* from the API */", expectedRevision: 2 });
  await replaceText(page, "print.css", ".total { color: green; }");
  await page.getByRole("button", { name: "Save" }).click();
  const conflict = page.getByRole("dialog", { name: "Someone saved this file meanwhile" });
  await expect(conflict).toContainText("saved revision 3");
  await checkA11y(page);
  await screenshots(page, "file-conflict");
  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(conflict).toBeHidden();
  await expect(editorBox(page, "print.css")).toContainText("from the API");
  await expect(page.getByText("Revision 3", { exact: true })).toBeVisible();

  // A template draft names the stylesheet: the file page says so.
  const tpl = await templates.createTemplate(ctx, { name: "Branded invoice", content: { composition: { root: { type: "text", text: "x" }, stylesheets: ["brand/print.css"] } } });
  await page.reload();
  await expect(page.getByRole("region", { name: "Used by" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Template Branded invoice" })).toBeVisible();

  // An uploaded font gets a name at the top level, next to the folder and the template.
  await seedFont(member.workspaceId, "Inter-Regular.woff2");
  await page.getByRole("navigation", { name: "Folder path" }).getByRole("link", { name: "Files" }).click();
  await page.getByRole("button", { name: "Add uploaded file" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add an uploaded file" });
  await expect(addDialog.getByLabel("Name")).toHaveValue("Inter-Regular.woff2");
  await addDialog.getByLabel("Name").fill("Inter.woff2");
  await addDialog.getByRole("button", { name: "Add file" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Inter.woff2" })).toContainText("Font");
  await expect(page.getByRole("row").filter({ hasText: "Branded invoice" })).toContainText("Template");
  await checkA11y(page);
  await screenshots(page, "files-listing");

  // The folder is not empty: deleting it is refused, with what it holds.
  await page.getByRole("button", { name: "Actions for brand", exact: true }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog", { name: "Delete brand?" }).getByRole("button", { name: "Delete folder" }).click();
  const refusal = page.getByRole("dialog", { name: "brand cannot be deleted" });
  await expect(refusal).toContainText("The folder brand is not empty");
  await expect(refusal.getByRole("list", { name: "What it holds" })).toContainText(`file brand/print.css (${fileId})`);
  await checkA11y(page);
  await screenshots(page, "files-folder-refusal");
  await refusal.getByRole("button", { name: "OK" }).click();

  // The stylesheet is in use: deleting it is refused, naming the template.
  await page.getByRole("link", { name: "brand", exact: true }).click();
  await page.getByRole("button", { name: "Actions for print.css" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog", { name: "Delete print.css?" }).getByRole("button", { name: "Delete file" }).click();
  const inUse = page.getByRole("dialog", { name: "print.css cannot be deleted" });
  await expect(inUse.getByRole("list", { name: "What uses it" })).toContainText(`template ${tpl.id} (Branded invoice) uses it as stylesheet brand/print.css`);
  await inUse.getByRole("button", { name: "OK" }).click();

  // Once no draft names it, it goes.
  await templates.saveDraft(ctx, tpl.id, { content: { composition: { root: { type: "text", text: "x" } } }, expectedRevision: 1 });
  await page.getByRole("button", { name: "Actions for print.css" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog", { name: "Delete print.css?" }).getByRole("button", { name: "Delete file" }).click();
  await expect(page.getByText("Deleted print.css").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "brand is empty" })).toBeVisible();
  await screenshots(page, "files-folder");
});

test("unsaved changes to a stylesheet are not lost silently: leaving asks first", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const f = await files.createFile(systemCtx(member.workspaceId, "e2e"), { name: "guarded.css", content: "a {}" });
  await signIn(page, member.email, member.password, `/files/${f.id}`);
  await replaceText(page, "guarded.css", "b { color: red }");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("navigation", { name: "Folder path" }).getByRole("link", { name: "Files" }).click();
  await expect(page).toHaveURL(new RegExp(`/files/${f.id}$`));
  await expect(editorBox(page, "guarded.css")).toContainText("color: red");
});

test("a content editor reads folders and stylesheets but cannot change them", async ({ page }) => {
  const editor = await createPerson({ role: "content_editor" });
  const ctx = systemCtx(editor.workspaceId, "e2e");
  const folder = await files.createFolder(ctx, { name: "shared" });
  const f = await files.createFile(ctx, { name: "base.css", folderId: folder.id, content: "body { margin: 0 }" });
  await signIn(page, editor.email, editor.password, `/files?folder=${folder.id}`);
  await expect(page.getByText("Your role (content editor) can read these files")).toBeVisible();
  await expect(page.getByRole("button", { name: "New folder" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Actions for base.css" })).toHaveCount(0);
  await page.getByRole("link", { name: "base.css" }).click();
  await expect(editorBox(page, "base.css")).toHaveAttribute("contenteditable", "false", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await checkA11y(page);
  await screenshots(page, "file-editor-content-editor");
  // The server refuses the changes too, not only the page.
  const origin = { origin: new URL(page.url()).origin };
  expect((await page.request.put(`/v1/workspace-files/${f.id}/content`, { data: { content: "x", expectedRevision: 1 }, headers: origin })).status()).toBe(403);
  expect((await page.request.post("/v1/workspace-folders", { data: { name: "mine" }, headers: origin })).status()).toBe(403);
});
