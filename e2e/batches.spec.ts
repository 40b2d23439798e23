import fs from "node:fs";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/**
 * Batches in the console: a batch made through the API shows on its page with counts that follow
 * the items to their end without a reload, its items in request order linking to each render, the
 * renders list links items to their batch, and the combined PDF downloads once every item succeeded.
 */

type Summary = { id: string; items: { id: string; index: number }[] };

/**
 * A document whose render stays active for `ms`, then shows `text`. why a pause (waitFor.delayMs) and
 * not a busy page: a page looping until a time burned a core for all of it, which the other journeys
 * running meanwhile on the machine's two cores then waited for.
 */
const slowDocument = (ms: number, text: string) => ({ html: `<p>${text}</p>`, settings: { waitFor: { delayMs: ms } } });

test("a batch's page follows its items to their end and downloads the combined PDF", async ({ page }) => {
  test.slow(); // renders and a browser on a machine shared with the server, the worker and PostgreSQL
  const person = await createPerson({ role: "member" });
  const key = await createKeyAsSystem(systemCtx(person.workspaceId, "e2e"), "e2e batches", ["render:create", "render:read"], null);
  const res = await fetch(`${baseURL()}/v1/renders/batch`, {
    method: "POST",
    headers: { "x-api-key": key.secret, "content-type": "application/json" },
    body: JSON.stringify({
      items: [
        { document: { html: "<h1>First of the batch</h1>" } },
        { document: slowDocument(15_000, "Second of the batch") },
        { document: { html: "<h1>Third of the batch</h1>" }, test: true },
      ],
    }),
  });
  expect(res.status).toBe(202);
  const batch = (await res.json()) as Summary;
  await signIn(page, person.email, person.password);

  await page.goto(`/renders/batch/${batch.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Batch" })).toBeVisible();
  await expect(page.getByText(batch.id).first()).toBeVisible();
  const rows = page.getByRole("region", { name: "Batch items" }).getByRole("row");
  await expect(rows).toHaveCount(4); // the header and three items, in request order
  for (const item of batch.items) await expect(rows.nth(item.index + 1)).toContainText(item.id);
  // why in #content: while a refresh streams in, React briefly holds a hidden copy of the page outside it.
  await expect(page.locator("#content").getByText("Updating while the batch runs")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download combined PDF" })).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  await expect(page.locator("#content").getByTestId("count-succeeded")).toHaveText("3", { timeout: 90_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await expect(page.getByRole("heading", { name: "All 3 items ended" })).toBeVisible();
  await expect(page.locator("#content").getByTestId("count-queued")).toHaveText("0");
  await checkA11y(page);
  await screenshots(page, "batch");
  await expectNoSideScroll(page);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download combined PDF" }).click()]);
  expect(download.suggestedFilename()).toBe(`${batch.id}.pdf`);
  expect(fs.readFileSync(await download.path()).subarray(0, 5).toString()).toBe("%PDF-");

  // The renders list links each item to its batch; the item's page names it too.
  await page.goto(`/renders?batchId=${batch.id}`);
  await expect(page.getByRole("row")).toHaveCount(4);
  await page.getByRole("link", { name: "Batch item 1" }).click();
  await expect(page).toHaveURL(`/renders/batch/${batch.id}`);
  await page.getByRole("link", { name: batch.items[2]!.id }).click();
  await expect(page).toHaveURL(`/renders/${batch.items[2]!.id}`);
  await expect(page.getByRole("link", { name: /Item 2 of batch/ })).toBeVisible();

  await page.goto("/renders/batch/bat_doesnotexist");
  await expect(page.getByText(/not found|could not be found/i).first()).toBeVisible();
});
