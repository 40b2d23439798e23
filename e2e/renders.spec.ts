import fs from "node:fs";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test, type Person } from "./fixtures";
import { expectNoSideScroll, expectTableFits } from "./layout";

/**
 * Renders in the console: the list follows a running render to its end without a reload, filters
 * by state and test flag, and a render's page shows the request, the timeline, the error, the
 * download and cancel. Renders are made through the API with a key, as a program makes them.
 */

type Render = { id: string; state: string };

async function personWithKey(role: Person["role"] = "member") {
  const person = await createPerson({ role });
  const key = await createKeyAsSystem(systemCtx(person.workspaceId, "e2e"), "e2e renders", ["render:create", "render:read", "render:cancel"], null);
  const render = async (body: Record<string, unknown>): Promise<Render> => {
    const res = await fetch(`${baseURL()}/v1/renders`, { method: "POST", headers: { "x-api-key": key.secret, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect([200, 202]).toContain(res.status);
    return (await res.json()) as Render;
  };
  return { person, render };
}

/**
 * A document whose render stays active for `ms`, then shows `text`. why a pause (waitFor.delayMs) and
 * not a busy page: a page looping until a time burned a core for all of it, which the other journeys
 * running meanwhile on the machine's two cores then waited for.
 */
const slowDocument = (ms: number, text: string) => ({ html: `<p>${text}</p>`, settings: { waitFor: { delayMs: ms } } });

test("the renders list follows a running render to its end without reloading, and filters by state and test flag", async ({ page }) => {
  test.slow(); // renders and a browser on a machine shared with the server, the worker and PostgreSQL
  const { person, render } = await personWithKey("member");
  const failed = await render({ document: { html: "<p>one page</p>" }, format: "png", image: { page: 3 }, waitMs: 20_000 });
  expect(failed.state).toBe("failed");
  const test1 = await render({ document: { html: "<p>test render</p>" }, test: true, waitMs: 20_000 });
  expect(test1.state).toBe("succeeded");
  await signIn(page, person.email, person.password);

  // Long enough to still run when the list first shows, on a machine where a page load can take seconds.
  const slow = await render({ document: slowDocument(15_000, "slow") });
  await page.goto("/renders");
  await expect(page.getByRole("heading", { level: 1, name: "Renders" })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(slow.id) });
  await expect(row.getByText(/Queued|Processing/)).toBeVisible();
  // why in #content: while a refresh streams in, React briefly holds a hidden copy of the page outside it
  // (role queries skip hidden elements; text queries do not).
  const content = page.locator("#content");
  await expect(content.getByText("Updating while renders run")).toBeVisible();
  // A mark in the page's window: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  await expect(row.getByText("Succeeded")).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await expect(content.getByText("Updating while renders run")).toBeHidden();
  await checkA11y(page);
  await screenshots(page, "renders");
  await expectNoSideScroll(page);
  await expectTableFits(page, "Renders");

  await page.getByRole("combobox", { name: "State" }).click();
  await page.getByRole("option", { name: "Failed" }).click();
  await expect(page).toHaveURL(/\/renders\?state=failed$/);
  await expect(page.getByRole("row", { name: new RegExp(failed.id) })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2); // the header and the failed render
  await checkA11y(page);
  await screenshots(page, "renders-failed");

  await page.getByRole("combobox", { name: "State" }).click();
  await page.getByRole("option", { name: "All states" }).click();
  await page.getByRole("combobox", { name: "Test flag" }).click();
  await page.getByRole("option", { name: "Test renders only" }).click();
  await expect(page).toHaveURL(/\/renders\?test=true$/);
  await expect(page.getByRole("row", { name: new RegExp(test1.id) })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);

  await page.getByRole("combobox", { name: "State" }).click();
  await page.getByRole("option", { name: "Cancelled" }).click();
  await expect(page.getByRole("heading", { name: "No renders match these filters" })).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/renders$/);
  await expect(page.getByRole("row")).toHaveCount(4);
});

test("a render's page shows the request, the timeline and the file to download; a failed one its error", async ({ page }) => {
  test.slow(); // renders and a browser on a machine shared with the server, the worker and PostgreSQL
  const { person, render } = await personWithKey("content_editor");
  const ok = await render({ document: { html: "<h1>Download me</h1>" }, waitMs: 20_000 });
  const failed = await render({ document: { html: "<p>one page</p>" }, format: "png", image: { page: 3 }, waitMs: 20_000 });
  // A private-use character no font covers: the render succeeds with a font_glyphs_missing warning.
  const warned = await render({ document: { html: "<p>Mark: \uE000</p>" }, waitMs: 20_000 });
  expect(warned.state).toBe("succeeded");
  expect(warned).toMatchObject({ result: { warnings: [{ diagnostic: "font_glyphs_missing" }] } });
  await signIn(page, person.email, person.password);

  await page.goto("/renders");
  await page.getByRole("link", { name: ok.id }).click();
  await expect(page).toHaveURL(`/renders/${ok.id}`);
  await expect(page.getByRole("heading", { level: 1, name: /Render/ })).toContainText("Succeeded");
  const timeline = page.getByRole("list", { name: "Timeline" });
  for (const step of ["Created", "Started", "Succeeded"]) await expect(timeline.getByText(step, { exact: true })).toBeVisible();
  await expect(page.getByText("HTML document")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel render" })).toHaveCount(0); // it ended (and content editors cannot cancel)
  await checkA11y(page);
  await screenshots(page, "render");
  await expectNoSideScroll(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  expect(download.suggestedFilename()).toBe(`${ok.id}.pdf`);
  expect(fs.readFileSync(await download.path()).subarray(0, 5).toString()).toBe("%PDF-");

  await expect(page.getByText(/succeeded with/)).toHaveCount(0);
  await page.goto(`/renders/${warned.id}`);
  const warning = page.getByRole("region", { name: "The render succeeded with a warning" });
  await expect(warning).toContainText("font_glyphs_missing");
  await expect(warning).toContainText("U+E000");
  await checkA11y(page);

  await page.goto(`/renders/${failed.id}`);
  const error = page.getByRole("alert").filter({ hasText: "The render failed" });
  await expect(error).toContainText("RENDER_FAILED");
  await expect(error).toContainText("image_page_missing");
  await expect(page.getByRole("link", { name: /Download/ })).toHaveCount(0);
  await checkA11y(page);
  await screenshots(page, "render-failed");

  await page.goto("/renders/rnd_doesnotexist");
  await expect(page.getByText(/not found|could not be found/i).first()).toBeVisible();
});

test("a member cancels a running render from its page, after confirming", async ({ page }) => {
  test.slow(); // renders and a browser on a machine shared with the server, the worker and PostgreSQL
  const { person, render } = await personWithKey("member");
  const slow = await render({ document: slowDocument(30_000, "to cancel") });
  await signIn(page, person.email, person.password, `/renders/${slow.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Queued|Processing/);
  await page.getByRole("button", { name: "Cancel render" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel this render?" });
  await confirm.getByRole("button", { name: "Keep rendering" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Queued|Processing/);
  await page.getByRole("button", { name: "Cancel render" }).click();
  await confirm.getByRole("button", { name: "Cancel render" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Cancelled");
  await expect(page.getByRole("list", { name: "Timeline" }).getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel render" })).toHaveCount(0);
});

test("home shows the getting-started curl and the workspace's recent renders", async ({ page }) => {
  test.slow(); // renders and a browser on a machine shared with the server, the worker and PostgreSQL
  const { person, render } = await personWithKey("admin");
  const r = await render({ document: { html: "<h1>Hello</h1>" }, waitMs: 20_000 });
  await signIn(page, person.email, person.password);
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible();
  await expect(page.getByLabel("Render Hello (bash)")).toContainText(`curl -X POST ${baseURL()}/v1/renders`);
  await expect(page.getByLabel("Render Hello (bash)")).toContainText('x-api-key: $FOLIO_API_KEY');
  await expect(page.getByRole("region", { name: "Recent renders" }).getByRole("link", { name: r.id })).toBeVisible();
  await page.getByRole("link", { name: "Create a key" }).click();
  await expect(page.getByRole("dialog", { name: "Create an API key" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/\/api-keys$/);
});
