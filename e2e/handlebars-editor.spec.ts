import type { Page } from "@playwright/test";
import { systemCtx } from "../lib/auth/context";
import * as people from "../lib/people";
import * as templates from "../lib/templates";
import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * The console's Handlebars editor: created from the create dialog with a starter, edited (template
 * and helper) with the live preview, a syntax error shown at its line, the console output of the
 * preview's helpers and scripts, then saved and published.
 */

// why longer: the journey renders real pages several times on a shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

const firstPage = (page: Page) => page.getByRole("img", { name: /^Page 1 of \d+$/ });

/** Replaces the whole of a code tab's text as a person pasting over it would. */
async function replaceCode(page: Page, label: string, text: string) {
  const box = page.getByRole("textbox", { name: label, exact: true });
  await expect(box).toBeVisible({ timeout: 30_000 }); // CodeMirror loads after the page
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
}

const body = (heading: string) => `<html>\n<body style="font-family: sans-serif">\n  <h1>${heading}</h1>\n  {{#each lines}}{{> line}}{{/each}}\n  <p>Total: {{money total}}</p>\n</body>\n</html>`;

test("a member creates a Handlebars template, edits it and a helper with a live preview, sees a syntax error at its line and the console output, cannot publish it, saves and publishes", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const name = "Quarterly statement for customers with a particularly long and descriptive template name";
  await signIn(page, member.email, member.password, "/templates");
  await page.getByRole("button", { name: "Create template" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create a template" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Kind").click();
  await page.getByRole("option", { name: /^Handlebars/ }).click();
  await expect(dialog).toContainText("Starts with a partial, a helper, a script");
  await screenshots(page, "hbs-create-dialog");
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await page.waitForURL(/\/templates\/tpl_/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // The starter renders at once, and its script's console.log shows in the console pane.
  await expect(firstPage(page)).toBeVisible({ timeout: 30_000 });
  const consoleLines = page.getByTestId("console-lines");
  await expect(consoleLines).toContainText("lines: 2");
  await expect(consoleLines).toContainText("scripts");
  await screenshots(page, "hbs-editor-starter");

  // Editing the template and a helper updates the preview; the helper's log shows too.
  const before = await firstPage(page).getAttribute("src");
  await replaceCode(page, "template.html", body("Edited {{title}}"));
  await expect(firstPage(page)).not.toHaveAttribute("src", before!, { timeout: 20_000 });
  await page.getByRole("tab", { name: "helpers.js" }).click();
  const afterTemplate = await firstPage(page).getAttribute("src");
  await replaceCode(page, "helpers.js", 'function money(value) {\n  console.log("money for", value);\n  return "USD " + Number(value).toFixed(2);\n}');
  await expect(consoleLines).toContainText("money for 800");
  await expect(firstPage(page)).not.toHaveAttribute("src", afterTemplate!);

  // One helper run with arguments under helpers.js: what it returned, and its log in the console.
  const runner = page.getByRole("region", { name: "Run a helper" });
  await runner.getByLabel("Arguments (JSON array)").fill("1234.5, 2");
  await runner.getByRole("button", { name: "Run" }).click();
  await expect(runner.getByRole("alert")).toContainText("Arguments must be a JSON array");
  await runner.getByLabel("Arguments (JSON array)").fill("[1234.5]");
  await runner.getByRole("button", { name: "Run" }).click();
  await expect(runner.getByTestId("helper-output")).toHaveText("USD 1234.50");
  await expect(consoleLines).toContainText("money for 1234.5");
  await screenshots(page, "hbs-editor-run-helper");

  // Inside {{ }} template.html completes partials after {{>, and helpers and the data's fields.
  await page.getByRole("tab", { name: "template.html" }).click();
  await page.getByRole("textbox", { name: "template.html", exact: true }).click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("\n{{> ");
  const completions = page.getByRole("listbox");
  await expect(completions.getByRole("option", { name: /^line/ })).toBeVisible();
  await screenshots(page, "hbs-editor-completion");
  await completions.getByRole("option", { name: /^line/ }).click();
  await page.keyboard.press("End");
  await page.keyboard.type("\n{{mon");
  // why a click, not Enter: CodeMirror ignores Enter for 75 ms after the list changes (its interactionDelay).
  await completions.getByRole("option", { name: /^money/ }).click();
  await expect(page.getByRole("textbox", { name: "template.html", exact: true })).toContainText("{{> line}}");
  await expect(page.getByRole("textbox", { name: "template.html", exact: true })).toContainText("{{money}}");

  // A syntax error is marked at its tab and line, and said in words; fixing it clears it.
  await page.getByRole("tab", { name: "template.html" }).click();
  await replaceCode(page, "template.html", "<h1>{{title}}</h1>\n<p>{{title}</p>\n<p>never</p>");
  const problems = page.getByRole("list", { name: "Problems in template.html" });
  await expect(problems).toContainText("line 2", { timeout: 20_000 });
  await expect(problems).toContainText("Parse error");
  await expect(page.getByRole("tab", { name: /template\.html/ }).getByRole("img", { name: "has problems" })).toBeVisible();
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(1);
  await checkA11y(page);
  await screenshots(page, "hbs-editor-syntax-error");

  // A save keeps work in progress, typo and all; publishing it is refused, and says where.
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Not published").first()).toBeVisible();
  await expect(page.getByText("The saved draft has a problem, marked at its file and line").first()).toBeVisible();
  await expect(problems).toContainText("line 2");
  await screenshots(page, "hbs-editor-publish-refused");

  await replaceCode(page, "template.html", body("Saved {{title}}"));
  await expect(problems).toBeHidden({ timeout: 20_000 });
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByText("Saved revision 3").first()).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1").first()).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "hbs-editor");

  // Later edits compared with version 1: file by file, each a line diff whose long lines wrap.
  const long = "Changed after publishing, with a heading long enough to wrap in the dialog at any width, {{title}}";
  await replaceCode(page, "template.html", body(long));
  await page.getByRole("tab", { name: "Partials" }).click();
  await replaceCode(page, "Partial line", '<tr><td>{{description}}</td><td style="text-align: right">{{money amount}}</td><td>new</td></tr>');
  await page.getByRole("button", { name: "Versions" }).click();
  await page.getByRole("button", { name: "Open version 1" }).click();
  const diff = page.getByRole("region", { name: "Changes between this version and the draft" });
  const templateDiff = diff.getByRole("region", { name: "template.html: changed" });
  await expect(templateDiff.getByRole("deletion")).toHaveText("  <h1>Saved {{title}}</h1>");
  await expect(templateDiff.getByRole("insertion")).toHaveText(`  <h1>${long}</h1>`);
  await expect(diff.getByRole("region", { name: "Partial line: changed" }).getByRole("insertion")).toContainText("<td>new</td>");
  await expect(diff).toContainText("Unchanged: helpers.js, Script totals, Page header, Page footer, Page settings, Sample data example.");
  expect(await diff.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await checkA11y(page);
  await screenshots(page, "hbs-editor-version-diff");
  await page.getByRole("tab", { name: "Content (read-only)" }).click();
  await expect(page.getByRole("region", { name: "Content of version 1" }).getByRole("region", { name: "helpers.js" })).toContainText('console.log("money for", value);');
  await screenshots(page, "hbs-editor-version-content");
});

test("a content editor opens a Handlebars template: sample data is read only but picks the preview's data, and a content field's value saves", async ({ page }) => {
  const editor = await createPerson({ role: "content_editor" });
  const name = "Spring letter";
  const seeded = await templates.createTemplate(systemCtx(editor.workspaceId, "e2e"), {
    name,
    kind: "handlebars",
    content: {
      templateHtml: '<html>\n<body style="font-family: sans-serif">\n  <h1>{{content.headline}}</h1>\n  <p>Dear {{customer}}</p>\n</body>\n</html>',
      contentFields: [{ name: "headline", type: "text", label: "Headline", default: "Winter prices" }],
      sampleData: [
        { name: "example", data: { customer: "Ann" } },
        { name: "second customer", data: { customer: "Bo" } },
      ],
    },
  });

  await signIn(page, editor.email, editor.password, `/templates/${seeded.id}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Your role (content editor) can change the values on the Content tab")).toBeVisible();
  await expect(firstPage(page)).toBeVisible({ timeout: 30_000 });

  // Sample data: the sets to pick from, nothing to add, rename, delete or type into.
  await page.getByRole("tab", { name: "Sample data" }).click();
  await expect(page.getByText("Your role can pick the set to preview with, not change the sets.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add sample data set" })).toHaveCount(0);
  await expect(page.getByLabel("Name of this sample data set")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Sample data example" })).toHaveAttribute("contenteditable", "false", { timeout: 30_000 });
  // why the customer in the predicate: a preview of the first set may still be on its way.
  const second = page.waitForResponse((r) => r.url().endsWith("/preview") && r.request().method() === "POST" && r.status() === 200 && r.request().postDataJSON()?.data?.customer === "Bo");
  await page.getByRole("button", { name: "second customer" }).click();
  expect((await second).request().postDataJSON().data).toEqual({ customer: "Bo" });
  await expect(page.getByRole("textbox", { name: "Sample data second customer" })).toHaveAttribute("contenteditable", "false", { timeout: 30_000 });
  await checkA11y(page);
  await screenshots(page, "hbs-editor-content-editor-sample-data");

  // A content field's value saves; the sample data saved with it is as it was.
  await page.getByRole("tab", { name: "Content", exact: true }).click();
  await page.getByRole("textbox", { name: "Headline" }).fill("Spring sale");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  const draft = await templates.getDraft(systemCtx(editor.workspaceId, "e2e"), seeded.id);
  expect(draft.content).toMatchObject({ contentValues: { headline: "Spring sale" }, sampleData: [{ name: "example" }, { name: "second customer" }] });
  await checkA11y(page);
  await screenshots(page, "hbs-editor-content-editor");
});

test("a member whose role becomes content editor while editing is told which edits the role refuses, reverts them and saves the rest", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const ctx = systemCtx(member.workspaceId, "e2e");
  const html = '<html>\n<body style="font-family: sans-serif">\n  <h1>{{content.headline}}</h1>\n</body>\n</html>';
  const seeded = await templates.createTemplate(ctx, {
    name: "Autumn letter",
    kind: "handlebars",
    content: { templateHtml: html, contentFields: [{ name: "headline", type: "text", label: "Headline", default: "Autumn prices" }] },
  });
  await signIn(page, member.email, member.password, `/templates/${seeded.id}`);
  await expect(firstPage(page)).toBeVisible({ timeout: 30_000 });
  await replaceCode(page, "template.html", html.replace("</h1>", "</h1>\n  <p>A paragraph the role may not add</p>"));
  await page.getByRole("tab", { name: "Content", exact: true }).click();
  await page.getByRole("textbox", { name: "Headline" }).fill("Winter sale");

  // An admin makes them a content editor meanwhile: the save is refused, and the alert says which tab.
  await people.changeRole(ctx, { userId: member.userId, role: "content_editor" });
  await page.getByRole("button", { name: "Save" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Not saved: your role cannot change template.html." });
  await expect(alert).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "hbs-editor-role-refused");
  await alert.getByRole("button", { name: "Revert changes to template.html" }).click();
  await expect(alert).toBeHidden();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved revision 2").first()).toBeVisible();
  const draft = await templates.getDraft(ctx, seeded.id);
  expect(draft.content).toMatchObject({ templateHtml: html, contentValues: { headline: "Winter sale" } });
});

test("a member meets the Handlebars editor's JSON: sample data refused by the data schema is marked at its line, JSON typed key by key, translations and the preview language, readable parse errors once, Tab indents", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const name = "Order summary";
  await templates.createTemplate(systemCtx(member.workspaceId, "e2e"), {
    name,
    kind: "handlebars",
    content: {
      templateHtml: '<html>\n<body style="font-family: sans-serif">\n  <h1>{{localization.greeting}} {{customer}}</h1>\n  {{#each items}}<p>{{name}}: {{amount}}</p>{{/each}}\n</body>\n</html>',
      dataSchema: {
        type: "object",
        required: ["customer", "items"],
        properties: { customer: { type: "string" }, items: { type: "array", items: { type: "object", required: ["name", "amount"], properties: { name: { type: "string" }, amount: { type: "number" } } } } },
      },
      sampleData: [{ name: "example", data: { customer: "Ann", items: [{ name: "Tea", amount: "12" }] } }],
    },
  });

  // The list says what kind each template is.
  await signIn(page, member.email, member.password, "/templates");
  await expect(page.getByText("Handlebars templates are HTML with partials, helpers and scripts")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Handlebars");
  await screenshots(page, "templates-kinds");
  await page.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // The data schema refuses the sample data: the Sample data tab is marked, the problem listed at its line, and the preview says where.
  const sampleTab = page.getByRole("tab", { name: /^Sample data/ });
  await expect(sampleTab.getByRole("img", { name: "has problems" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Preview: pages" })).toContainText("Not rendered: see the problem marked in Sample data example, line");
  await sampleTab.click();
  const problems = page.getByRole("list", { name: "Problems in Sample data" });
  await expect(problems).toContainText("items.0.amount");
  await expect(problems).toContainText(/example, line \d+/);
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(1);
  await checkA11y(page);
  await screenshots(page, "hbs-editor-sample-data-schema");

  // Typed key by key, as a person does, while the schema completes and checks it: no errors in the browser's console.
  const sample = page.getByRole("textbox", { name: "Sample data example", exact: true });
  await sample.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  // why the items in the predicate: a pause mid-typing (a loaded machine) may preview a shorter, valid document first.
  const fixed = page.waitForResponse((r) => r.url().endsWith("/preview") && r.request().method() === "POST" && r.status() === 200 && r.request().postDataJSON()?.data?.items?.[0]?.amount === 12, { timeout: 30_000 });
  await page.keyboard.type('{"customer": "Bo", "items": [{"name": "Tea", "amount": 12}]}', { delay: 30 });
  expect((await fixed).request().postDataJSON().data).toEqual({ customer: "Bo", items: [{ name: "Tea", amount: 12 }] });
  await expect(problems).toBeHidden();

  // Translations: the empty state says how Handlebars reads one; with a file, the preview can render in its language.
  await page.getByRole("tab", { name: "Translations" }).click();
  await expect(page.getByText("{{localization.greeting}}")).toBeVisible();
  await page.getByLabel("New translation's locale").fill("de");
  await page.getByRole("button", { name: "Add translation" }).click();
  await replaceCode(page, "Translation de", '{\n  "greeting": "Hallo"\n}');
  const inGerman = page.waitForResponse((r) => r.url().endsWith("/preview") && r.request().method() === "POST" && r.status() === 200 && r.request().postDataJSON().locale === "de", { timeout: 30_000 });
  await page.getByLabel("Preview language").click();
  await page.getByRole("option", { name: "de", exact: true }).click();
  await inGerman;
  await checkA11y(page);
  await screenshots(page, "hbs-editor-preview-language");

  // A Handlebars parse error, in words, listed once; the preview points at it instead of repeating it.
  await page.getByRole("tab", { name: "template.html" }).click();
  await replaceCode(page, "template.html", "<h1>{{customer}}</h1>\n<p>{{customer}</p>");
  const htmlProblems = page.getByRole("list", { name: "Problems in template.html" });
  await expect(htmlProblems).toContainText("Parse error on line 2: “{{customer}” is not closed; end it with }}.", { timeout: 20_000 });
  await expect(page.getByRole("region", { name: "Preview: pages" })).toContainText("Not rendered: see the problem marked in template.html, line 2.");
  await expect(page.getByText("CLOSE_RAW_BLOCK")).toHaveCount(0);
  await expect(page.getByText("is not closed; end it with }}")).toHaveCount(1);
  await screenshots(page, "hbs-editor-parse-error");

  // A JSON syntax error, in words at its line and column.
  await page.getByRole("tab", { name: "Page settings" }).click();
  await replaceCode(page, "Page settings", '{\n  "locale": "de"\n  "title": "x"\n}');
  await expect(page.getByRole("list", { name: "Problems in Page settings" })).toContainText("Page settings are not valid JSON: line 3, column 3: expected , or } after a property's value");
  await expect(page.getByRole("region", { name: "Preview: pages" })).toContainText("Not rendered: Page settings has a problem, listed under that tab.");
  await replaceCode(page, "Page settings", "{}");

  // Tab indents in the code editor; Escape then Tab moves on from it.
  await page.getByRole("tab", { name: "template.html" }).click();
  await replaceCode(page, "template.html", "<h1>{{customer}}</h1>\n<p>x</p>");
  await page.keyboard.press("ControlOrMeta+Home");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "template.html", exact: true })).toBeFocused();
  await expect(page.getByRole("textbox", { name: "template.html", exact: true })).toContainText("  <h1>");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "template.html", exact: true })).not.toBeFocused();
});
