import { systemCtx } from "../lib/auth/context";
import { db } from "../lib/db/client";
import { usageDays } from "../lib/db/schema";
import { createKeyAsSystem } from "../lib/keys";
import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/** The usage page: render limits as meters with what is in use, and usage by day over a chosen range, test renders apart. */
test("a member sees the workspace's render limits in use and its usage by day with test renders apart, and changes the range", async ({ page }) => {
  test.slow(); // a render and a browser on a machine shared with the server, the worker and PostgreSQL
  const member = await createPerson({ role: "member" });
  await signIn(page, member.email, member.password);
  const { secret } = await createKeyAsSystem(systemCtx(member.workspaceId, "e2e"), "usage", ["render:create", "render:read"], null);
  const { secret: templateKey } = await createKeyAsSystem(systemCtx(member.workspaceId, "e2e"), "templates", ["render:create", "template:read", "template:write"], null);
  const render = await page.request.post("/v1/renders", { data: { document: { html: "<p>usage</p>" }, waitMs: 20_000 }, headers: { "x-api-key": secret } });
  expect(render.status()).toBeLessThan(300);
  // A two-page test render: counted with the others, and shown apart.
  const twoPages = '<section style="break-after:page">one</section><section>two</section>';
  const testRender = await page.request.post("/v1/renders", { data: { document: { html: twoPages }, test: true, waitMs: 20_000 }, headers: { "x-api-key": secret } });
  expect(testRender.status()).toBeLessThan(300);
  const ended = [await render.json(), await testRender.json()] as { state: string; finishedAt: string }[];
  expect(ended.map((r) => r.state)).toEqual(["succeeded", "succeeded"]);
  // Two string renders and an HTML preview: no render and no allowance, but shown apart.
  for (const name of ["Ada", "Grace"]) {
    const string = await page.request.post("/v1/renders/string", { data: { template: "<p>{{name}}</p>", data: { name } }, headers: { "x-api-key": secret } });
    expect(string.status()).toBe(200);
  }
  const template = await page.request.post("/v1/templates", { data: { name: "Usage", kind: "handlebars", content: { templateHtml: "<p>Hi {{name}}</p>" } }, headers: { "x-api-key": templateKey } });
  expect(template.status()).toBe(201);
  const htmlPreview = await page.request.post(`/v1/templates/${(await template.json()).id}/preview`, { data: { data: { name: "Ada" }, format: "html" }, headers: { "x-api-key": templateKey } });
  expect(htmlPreview.status()).toBe(200);

  await page.goto("/usage");
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(page.getByRole("meter", { name: "Active renders" })).toHaveAttribute("aria-valuemax", "10");
  // Test renders have limits of their own (spec: Test renders): neither this meter nor documents count them.
  await expect(page.getByRole("meter", { name: "Renders in the last minute" })).toHaveAttribute("aria-valuenow", "1");
  await expect(page.getByRole("meter", { name: "Documents this month" })).toHaveAttribute("aria-valuetext", "1 (unlimited)");
  await expect(page.getByRole("meter", { name: "Test renders today" })).toHaveAttribute("aria-valuenow", "1");
  // Totals: 2 renders of which 1 test, 3 pages of which 2 are the test render's.
  await expect(page.getByRole("definition").filter({ hasText: "1 test; 2 succeeded, 0 failed, 0 cancelled" })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "2 of test renders" })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "2 string renders, 1 HTML preview; no allowance used" })).toBeVisible();
  const table = page.getByRole("region", { name: "Usage by day" });
  const columns = await table.getByRole("columnheader").allTextContents();
  const cellsOf = async (row: string) => {
    const cells = await table.getByRole("row").filter({ hasText: row }).getByRole("cell").allTextContents();
    return Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
  };
  // Both renders normally end on one UTC day; around midnight, on two.
  const days = [...new Set(ended.map((r) => r.finishedAt.slice(0, 10)))];
  for (const day of days) await expect(table.getByRole("row").filter({ hasText: day })).toHaveCount(1);
  expect(await cellsOf("Total")).toMatchObject({ Succeeded: "2", "Test renders": "1", Pages: "3", "Test pages": "2", "String renders": "2", "HTML previews": "1" });
  if (days.length === 1) expect(await cellsOf(days[0]!)).toMatchObject({ Succeeded: "2", "Test renders": "1", Pages: "3", "Test pages": "2" });
  await checkA11y(page);
  await screenshots(page, "usage");
  await expectNoSideScroll(page);

  await page.getByLabel("From", { exact: true }).fill("2020-01-01");
  await page.getByLabel("To", { exact: true }).fill("2020-01-31");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/usage\?from=2020-01-01&to=2020-01-31$/);
  await expect(page.getByText("No usage in this range")).toBeVisible();

  // A year of usage (recorded directly: renders cannot end in the past): a bar a day, test parts striped.
  const year = Array.from({ length: 40 }, (_, i) => {
    const day = new Date(Date.UTC(2021, 0, 1 + i * 9)).toISOString().slice(0, 10);
    const rendersSucceeded = 3 + (i % 7) * 4;
    return { workspaceId: member.workspaceId, day, rendersSucceeded, rendersFailed: i % 3, pages: rendersSucceeded * 2, outputBytes: rendersSucceeded * 9000, testRenders: i % 4, testPages: (i % 4) * 2 };
  });
  await db().insert(usageDays).values(year);
  await page.goto("/usage?from=2021-01-01&to=2021-12-31");
  const total = (k: "rendersSucceeded" | "testRenders") => year.reduce((n, d) => n + d[k], 0).toLocaleString("en-GB");
  expect(await cellsOf("Total")).toMatchObject({ Succeeded: total("rendersSucceeded"), "Test renders": total("testRenders") });
  await expect(table.getByRole("row")).toHaveCount(year.length + 2); // the header, the days, the total
  await checkA11y(page);
  await screenshots(page, "usage-year");
  await expectNoSideScroll(page);

  await page.goto("/usage?from=2020-01-01&to=2021-06-01");
  await expect(page.getByText("This range cannot be shown")).toBeVisible();
  await checkA11y(page);
});
