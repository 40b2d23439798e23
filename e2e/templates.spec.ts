import type { Browser, Page } from "@playwright/test";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { seedAsset, solidPng } from "../lib/testing/template-files";
import * as templates from "../lib/templates";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test, type Person } from "./fixtures";

/**
 * Templates in the console: the list (create, search, rename, delete) and the editor (tabs, live
 * preview, validation while typing, save checked by revision, publish, versions and their diff),
 * per role: members edit, content editors read and publish only.
 */

// why longer: these journeys render real pages many times on a shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

const root = (text: string) => JSON.stringify({ root: { type: "container", style: { fontSize: 24 }, children: [{ type: "text", text }] } }, null, 2);

/** A template made through the same verb as POST /v1/templates, for journeys that start in the editor. */
async function seedTemplate(workspaceId: string, name: string, text = "Seeded text") {
  const t = await templates.createTemplate(systemCtx(workspaceId, "e2e"), { name, content: { composition: JSON.parse(root(text)) } });
  return t.id;
}

const composition = (page: Page) => page.getByRole("textbox", { name: "composition.json" });
const firstPage = (page: Page) => page.getByRole("img", { name: /^Page 1 of \d+$/ });

/** Replaces the whole of composition.json as a person pasting over it would. */
async function replaceComposition(page: Page, text: string) {
  const box = composition(page);
  await expect(box).toBeVisible({ timeout: 30_000 }); // CodeMirror loads after the page
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

async function signedIn(browser: Browser, person: Person, path: string) {
  const context = await browser.newContext({ baseURL: process.env.FOLIO_E2E_BASE_URL, extraHTTPHeaders: { "x-forwarded-for": `127.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}` } });
  const page = await context.newPage();
  await signIn(page, person.email, person.password, path);
  return { context, page };
}

test("a member creates a template, edits it with a live preview and validation, saves, publishes and compares a version with the draft", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password, "/templates");
  await expect(page.getByRole("heading", { level: 2, name: "No templates yet" })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "templates-empty");

  await page.getByRole("button", { name: "Create template" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create a template" });
  await dialog.getByLabel("Name").fill("Invoice from e2e");
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await page.waitForURL(/\/templates\/tpl_/);
  await expect(page.getByRole("heading", { level: 1, name: "Invoice from e2e" })).toBeVisible();
  await expect(firstPage(page)).toBeVisible({ timeout: 20_000 });
  const before = await firstPage(page).getAttribute("src");

  // The live preview renders the edit about 300 ms after typing stops, without saving it.
  const rendered = page.waitForResponse((r) => r.url().includes("/preview") && r.request().method() === "POST" && r.status() === 200);
  await replaceComposition(page, root("Hello from the live preview"));
  await rendered;
  await expect(firstPage(page)).not.toHaveAttribute("src", before!);
  await expect(page.getByTestId("preview-status")).toContainText(/1 page · \d+ ms/);
  await expect(page.getByText("Unsaved changes")).toBeVisible();

  // A validation error appears at its line while typing, and the preview says what the server refused.
  await replaceComposition(page, '{\n  "root": {\n    "type": "txt"\n  }\n}');
  const problems = page.getByRole("list", { name: "Problems in composition.json" });
  await expect(problems).toBeVisible();
  await expect(problems).toContainText("root.type");
  await expect(page.getByRole("alert").filter({ hasText: "content.composition.root" })).toBeVisible({ timeout: 15_000 });

  await replaceComposition(page, root("Saved and published"));
  await expect(problems).toBeHidden();
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1").first()).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "template-editor");

  // A later edit, compared with version 1.
  await replaceComposition(page, root("Changed after publishing"));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved revision 3").first()).toBeVisible();
  await page.getByRole("button", { name: "Versions" }).click();
  await page.getByRole("button", { name: "Open version 1" }).click();
  const diff = page.getByLabel("Changes between this version and the draft");
  await expect(diff).toContainText("Changed after publishing");
  await expect(diff).toContainText("Saved and published");
  await checkA11y(page);
  await screenshots(page, "template-version-diff");
  await page.getByRole("tab", { name: "Render with sample data" }).click();
  await expect(page.getByRole("dialog").getByRole("img", { name: /^Page 1 of 1$/ })).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press("Escape");

  // The list shows who edited it and what is published.
  await page.getByRole("link", { name: "Templates", exact: true }).first().click();
  const row = page.getByRole("row").filter({ hasText: "Invoice from e2e" });
  await expect(row).toContainText("Version 1");
  await expect(row).toContainText(`by ${member.name}`);
  await screenshots(page, "templates");
});

test("a member publishes, copies the version's id and ready request, renders with it through the API, and makes a real render from the console", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const member = await createPerson({ role: "member" });
  const composition = { root: { type: "container", style: { fontSize: 24 }, children: [{ type: "text", text: "Dear" }, { type: "text", text: { path: ["name"] } }] } };
  const t = await templates.createTemplate(systemCtx(member.workspaceId, "e2e"), {
    name: "Letter with a rather long name for the version list",
    content: { composition, settings: { margins: { topMm: 12, bottomMm: 15 }, locale: "en-US" } },
  });
  await signIn(page, member.email, member.password, "/templates");
  // The sample data lives in this browser (the editor's Sample data tab); set as that tab would keep it.
  await page.evaluate(({ key, data }) => window.localStorage.setItem(key, data), { key: `folio:sample-data:${t.id}`, data: JSON.stringify({ name: "Ada O'Neill" }) });
  await page.goto(`/templates/${t.id}`);
  await expect(firstPage(page)).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1").first()).toBeVisible();
  await expect(page.getByText(/Its id is tv_/).first()).toBeVisible();

  // The version list shows the id, to copy, and a ready request with the sample data.
  await page.getByRole("button", { name: "Versions" }).click();
  const item = page.getByRole("listitem", { name: "Version 1" });
  const versionId = (await item.getByTestId("version-id").textContent())!.trim();
  expect(versionId).toMatch(/^tv_/);
  await item.getByRole("button", { name: "Copy id" }).click();
  await expect(item.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(versionId);
  await item.getByText("Ready request (curl)").click();
  await item.getByRole("button", { name: "Copy request" }).click();
  const command = await page.evaluate(() => navigator.clipboard.readText());
  expect(command).toContain("/v1/renders");
  expect(command).toContain('x-api-key: $FOLIO_API_KEY');
  await checkA11y(page);
  await screenshots(page, "template-versions");

  // The copied request works with a "Render only" key (render:create, no template:read).
  const quoted = /-d '((?:[^']|'\\'')*)'$/.exec(command)![1]!.replaceAll("'\\''", "'");
  const body = JSON.parse(quoted) as { templateVersionId: string; data: { name: string } };
  expect(body).toEqual({ templateVersionId: versionId, data: { name: "Ada O'Neill" } });
  const key = await createKeyAsSystem(systemCtx(member.workspaceId, "e2e"), "render only", ["render:create", "render:read", "render:cancel"], null);
  const viaApi = await fetch(`${baseURL()}/v1/renders`, { method: "POST", headers: { "x-api-key": key.secret, "content-type": "application/json" }, body: quoted });
  expect([200, 202], await viaApi.clone().text()).toContain(viaApi.status);
  expect(((await viaApi.json()) as { templateVersionId: string }).templateVersionId).toBe(versionId);

  // Nothing changed since publishing: the comparison says so plainly.
  await item.getByRole("button", { name: "Open version 1" }).click();
  await expect(page.getByText("No changes: the draft holds the same content as this version.")).toBeVisible();
  await page.getByRole("button", { name: "All versions" }).click();

  // A real render from the console, with data changed in the dialog (checked before it is sent).
  await item.getByRole("button", { name: "Render version 1…" }).click();
  const form = page.getByRole("form", { name: "Render version 1" });
  const data = form.getByLabel("Data (JSON)");
  await expect(data).toHaveValue(/Ada O'Neill/);
  await checkA11y(page);
  await screenshots(page, "template-render-dialog");
  await data.fill("[1, 2]");
  await form.getByRole("button", { name: "Render", exact: true }).click();
  await expect(form.getByText("The data must be a JSON object")).toBeVisible();
  await data.fill(JSON.stringify({ name: "Grace Hopper" }));
  await form.getByRole("button", { name: "Render", exact: true }).click();
  await page.waitForURL(/\/renders\/rnd_/);
  await expect(page.getByRole("link", { name: "Download PDF" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(versionId, { exact: true })).toBeVisible();
  const file = await page.request.get(`/v1/renders/${page.url().split("/renders/")[1]}/file`);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("application/pdf");
});

test("unsaved changes are not lost silently: leaving asks first", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const id = await seedTemplate(member.workspaceId, "Guarded");
  await signIn(page, member.email, member.password, `/templates/${id}`);
  await replaceComposition(page, root("Not saved yet"));
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("link", { name: "Templates" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/templates/${id}$`));
  await expect(composition(page)).toContainText("Not saved yet");
});

test("a revision conflict between two people: one reloads, then the other overwrites", async ({ browser }) => {
  const ann = await createPerson({ role: "member", name: "Ann Editor" });
  const bob = await createPerson({ role: "admin", workspaceId: ann.workspaceId, name: "Bob Editor" });
  const id = await seedTemplate(ann.workspaceId, "Shared");
  const a = await signedIn(browser, ann, `/templates/${id}`);
  const b = await signedIn(browser, bob, `/templates/${id}`);

  await replaceComposition(a.page, root("Ann's first change"));
  await a.page.getByRole("button", { name: "Save" }).click();
  await expect(a.page.getByText("Saved revision 2").first()).toBeVisible();

  await replaceComposition(b.page, root("Bob's stale change"));
  await b.page.getByRole("button", { name: "Save" }).click();
  const conflict = b.page.getByRole("dialog", { name: "Someone saved this template meanwhile" });
  await expect(conflict).toContainText("Ann Editor saved revision 2");
  await checkA11y(b.page);
  await screenshots(b.page, "template-conflict");
  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(conflict).toBeHidden();
  await expect(composition(b.page)).toContainText("Ann's first change");
  await expect(b.page.getByText("Revision 2", { exact: true })).toBeVisible();

  await replaceComposition(a.page, root("Ann's second change"));
  await a.page.getByRole("button", { name: "Save" }).click();
  await expect(a.page.getByText("Saved revision 3").first()).toBeVisible();
  await replaceComposition(b.page, root("Bob overwrites"));
  await b.page.getByRole("button", { name: "Save" }).click();
  await expect(conflict).toContainText("Ann Editor saved revision 3");
  await conflict.getByRole("button", { name: "Overwrite" }).click();
  await expect(b.page.getByText("Saved revision 4").first()).toBeVisible();
  const draft = await templates.getDraft(systemCtx(ann.workspaceId, "e2e"), id);
  expect(JSON.stringify(draft.content)).toContain("Bob overwrites");
  await a.context.close();
  await b.context.close();
});

/** Replaces the whole text of one of the editor's code tabs (opened first), as pasting over it would. */
async function replaceTab(page: Page, tab: string, text: string) {
  await page.getByRole("tab", { name: tab }).click();
  const box = page.getByRole("textbox", { name: tab });
  await expect(box).toBeVisible({ timeout: 30_000 });
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

test("a member declares a data schema and a content field; the sample data is checked against the schema, and the content form shows the field", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const t = await templates.createTemplate(systemCtx(member.workspaceId, "e2e"), {
    name: "Order confirmation",
    content: { composition: { root: { type: "container", children: [{ type: "text", text: { path: ["customer", "name"], fallback: "Someone" } }] } } },
  });
  await signIn(page, member.email, member.password, `/templates/${t.id}`);
  await expect(firstPage(page)).toBeVisible({ timeout: 30_000 });
  const schema = { type: "object", required: ["customer"], properties: { customer: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } };
  await replaceTab(page, "Data schema", JSON.stringify(schema, null, 2));
  await replaceTab(page, "Content fields", JSON.stringify([{ name: "headline", type: "text", label: "Headline", default: "Thank you" }], null, 2));

  // Sample data that breaks the schema: the preview says which value, under Sample data.
  await replaceTab(page, "Sample data", JSON.stringify({ customer: { name: 5 } }));
  const problems = page.getByRole("list", { name: "Problems in Sample data" });
  await expect(problems).toContainText("customer.name", { timeout: 20_000 });
  await replaceTab(page, "Sample data", JSON.stringify({ customer: { name: "Ada" } }));
  await expect(problems).toBeHidden({ timeout: 20_000 });

  await page.getByRole("tab", { name: "Content", exact: true }).click();
  await expect(page.getByRole("textbox", { name: "Headline" })).toHaveAttribute("placeholder", "Thank you");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  await page.getByRole("tab", { name: "Data schema" }).click();
  await checkA11y(page);
  await screenshots(page, "template-data-schema");
  const served = await page.request.get(`/v1/templates/${t.id}/data-schema`);
  expect(await served.json()).toEqual(schema);
});

test("a content editor changes a content field's value, previews, saves and publishes it, and is refused any other change", async ({ page }) => {
  const editor = await createPerson({ role: "content_editor" });
  const ctx = systemCtx(editor.workspaceId, "e2e");
  const name = "Spring newsletter with a rather long name that has to wrap somewhere on a phone";
  const seeded = await templates.createTemplate(ctx, {
    name,
    content: {
      composition: {
        root: {
          type: "container",
          style: { fontSize: 24 },
          children: [
            { type: "text", text: { path: ["content", "headline"] } },
            { type: "text", text: { path: ["content", "body"] } },
            { type: "image", assetId: { path: ["content", "banner"] }, visibleWhen: { path: ["content", "banner"], operator: "exists" } },
          ],
        },
      },
      contentFields: [
        { name: "headline", type: "text", label: "Headline", default: "Winter prices" },
        { name: "body", type: "multilineText", label: "Body text", default: "Everything must go." },
        { name: "banner", type: "image", label: "Banner" },
      ],
    },
  });
  await templates.publish(ctx, seeded.id, 1);
  const owner = { id: editor.workspaceId, key: (await createKeyAsSystem(ctx, "e2e set-up", ["asset:manage"], null)).secret, baseUrl: baseURL() };
  const banner = await seedAsset(owner, { kind: "image", filename: "banner.png", mediaType: "image/png", bytes: await solidPng(80, 20, [37, 99, 235]) });

  await signIn(page, editor.email, editor.password, "/templates");
  await expect(page.getByRole("button", { name: "Create template" })).toHaveCount(0);
  await page.getByRole("link", { name }).click();
  await expect(page.getByText("Your role (content editor) can change the values on the Content tab")).toBeVisible();
  // Content editors open on the content form; the preview shows the defaults.
  const headline = page.getByRole("textbox", { name: "Headline" });
  await expect(headline).toHaveAttribute("placeholder", "Winter prices");
  await expect(firstPage(page)).toBeVisible({ timeout: 20_000 });

  const rendered = page.waitForResponse((r) => r.url().includes("/preview") && r.request().method() === "POST" && r.status() === 200);
  await headline.fill("Spring sale");
  const previewed = await rendered;
  expect((previewed.request().postDataJSON() as { content: { contentValues: Record<string, string> } }).content.contentValues).toEqual({ headline: "Spring sale" });
  await page.getByRole("textbox", { name: "Body text" }).fill("Ten percent off\nuntil Friday");

  // The banner: an image of the workspace, chosen in the picker.
  await page.getByRole("button", { name: "Choose image for Banner" }).click();
  const picker = page.getByRole("dialog", { name: "Choose the image for Banner" });
  await expect(picker.getByRole("button", { name: /^Use banner\.png/ })).toBeVisible();
  await checkA11y(page);
  // why the banner in the predicate: the body text's preview may still be on its way (it waits for a pause in typing).
  const withBanner = page.waitForResponse((r) => r.url().includes("/preview") && r.request().method() === "POST" && r.status() === 200 && r.request().postDataJSON()?.content?.contentValues?.banner !== undefined);
  await picker.getByRole("button", { name: /^Use banner\.png/ }).click();
  expect((await withBanner).request().postDataJSON().content.contentValues).toEqual({ headline: "Spring sale", body: "Ten percent off\nuntil Friday", banner });
  await expect(page.getByText(`Shows ${banner}`)).toBeVisible();

  // Publishing takes the saved draft: save first, then publish.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Revision 2", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 2").first()).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "template-content-editor");

  // The layout is read only to them, and the server refuses any change but values, naming the scope.
  await page.getByRole("tab", { name: "composition.json" }).click();
  await expect(composition(page)).toHaveAttribute("contenteditable", "false", { timeout: 30_000 });
  const draft = (await (await page.request.get(`/v1/templates/${seeded.id}/draft`)).json()) as { content: { composition: { root: unknown } } };
  const changed = { ...draft.content, composition: JSON.parse(root("A new layout")) };
  const refused = await page.request.put(`/v1/templates/${seeded.id}/draft`, { data: { content: changed, expectedRevision: 2 }, headers: { origin: new URL(page.url()).origin } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("template:write");
  const versions = (await (await page.request.get(`/v1/templates/${seeded.id}/versions`)).json()) as { items: { version: number; contentOnly: boolean }[] };
  expect(versions.items.map((v) => [v.version, v.contentOnly])).toEqual([[2, true], [1, false]]);
});

test("an admin searches, renames and deletes templates from the list", async ({ page }) => {
  const admin = await createPerson({ role: "admin" });
  await seedTemplate(admin.workspaceId, "Quarterly report");
  await seedTemplate(admin.workspaceId, "Delivery note");
  await signIn(page, admin.email, admin.password, "/templates");
  await page.getByRole("searchbox", { name: "Search templates by name" }).fill("REPORT");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("link", { name: "Quarterly report" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Delivery note" })).toHaveCount(0);
  await page.goto("/templates?q=nothing-like-this");
  await expect(page.getByRole("heading", { name: /No template named like/ })).toBeVisible();
  await checkA11y(page);

  await page.goto("/templates");
  await page.getByRole("button", { name: "Actions for Delivery note" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename Delivery note" });
  await rename.getByLabel("Name").fill("Delivery slip");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("link", { name: "Delivery slip" })).toBeVisible();

  await page.getByRole("button", { name: "Actions for Delivery slip" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog", { name: "Delete Delivery slip?" }).getByRole("button", { name: "Delete template" }).click();
  await expect(page.getByRole("link", { name: "Delivery slip" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Quarterly report" })).toBeVisible();
});

test("a Handlebars template made through the API, with a long name, opens in the Handlebars editor, not the component one", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const name = `Handlebars statement for a very long customer name ${"x".repeat(60)}`;
  const t = await templates.createTemplate(systemCtx(member.workspaceId, "e2e"), { name, kind: "handlebars", content: { templateHtml: "<p>{{customer}}</p>" } });
  await signIn(page, member.email, member.password, `/templates/${t.id}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("tab", { name: "helpers.js" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "composition.json" })).toHaveCount(0);
  await page.getByRole("tab", { name: "template.html" }).click();
  await expect(page.getByText("<p>{{customer}}</p>")).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "template-handlebars");
});
