import type { Page } from "@playwright/test";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { checkA11y, createPerson, expect, newWorkspace, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/**
 * The platform administrators' page (/platform). Not in e2e/pages.ts: who may open it is the
 * user's platform-admin flag, not a workspace role, so the refusal is checked here (an owner who
 * is not a platform administrator: the page answers 403 and the server action is refused).
 */

/**
 * The workspace's row, found with the page's search: the list then holds it alone, however many
 * workspaces other journeys make meanwhile (a page by id would shift under them).
 */
async function findRow(page: Page, name: string) {
  await page.goto("/platform");
  await page.getByRole("searchbox", { name: "Find workspaces by name or id" }).fill(name);
  await page.getByRole("button", { name: "Find", exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  const row = page.getByRole("row", { name, exact: true });
  await expect(row).toBeVisible();
  await expect(page.getByRole("region", { name: "Workspaces" }).getByRole("row")).toHaveCount(2); // the header and the one found
  return row;
}

test("a platform administrator lists workspaces with usage, lowers an allowance, suspends and unsuspends; an owner is refused", async ({ page, browser }) => {
  test.slow(); // a render, two browsers and several pages on a machine shared with the server and worker
  const admin = await createPerson({ role: "member", platformAdmin: true });
  const a = await newWorkspace(`Platform A ${Math.random().toString(36).slice(2, 8)}`);
  const b = await newWorkspace(`Platform B ${Math.random().toString(36).slice(2, 8)}`);
  const { secret } = await createKeyAsSystem(systemCtx(a.id, "e2e"), "platform", ["render:create", "render:read"], null);
  const render = await page.request.post("/v1/renders", { data: { document: { html: "<p>platform</p>" }, waitMs: 20_000 }, headers: { "x-api-key": secret } });
  expect(render.status()).toBe(200);

  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Platform" })).toBeVisible();

  // Both workspaces are listed, with their allowances and A's usage this month.
  const rowB = await findRow(page, b.name);
  await expect(rowB.getByText("Active", { exact: true })).toBeVisible();
  const rowA = await findRow(page, a.name);
  await expect(page.getByRole("heading", { level: 1, name: "Platform" })).toBeVisible();
  await expect(rowA.getByText("Active", { exact: true })).toBeVisible();
  await expect(rowA.getByRole("definition").nth(0)).toHaveText("10");
  await expect(rowA.locator("dt", { hasText: "Succeeded" }).locator("+ dd")).toHaveText("1");
  await expect(rowA.locator("dt", { hasText: "Pages" }).locator("+ dd")).toHaveText("1");
  await checkA11y(page);
  await screenshots(page, "platform");
  await expectNoSideScroll(page);

  // A search that finds nothing says so and leads back to the whole list.
  await page.getByRole("searchbox", { name: "Find workspaces by name or id" }).fill(`${a.name} and more`);
  await page.getByRole("button", { name: "Find", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No workspace found" })).toBeVisible();
  await checkA11y(page);
  await page.getByRole("link", { name: "Show every workspace" }).click();
  await expect(page).toHaveURL(/\/platform$/);
  await findRow(page, a.name);

  // Lower A's maxActiveRenders; the page and GET /v1/render-limits show it.
  await rowA.getByRole("button", { name: `Edit allowances of ${a.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Allowances of ${a.name}` });
  await expect(dialog.getByLabel("Active renders at once")).toHaveValue("10");
  await expect(dialog.getByLabel("Documents per month")).toHaveValue("");
  await dialog.getByLabel("Active renders at once").fill("0");
  await dialog.getByRole("button", { name: "Save allowances" }).click();
  await expect(dialog.getByLabel("Active renders at once")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("Use a whole number from 1 to 100,000.", { exact: true })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "platform-edit-allowances");
  await dialog.getByLabel("Active renders at once").fill("3");
  await dialog.getByLabel("Documents per month").fill("500");
  await dialog.getByRole("button", { name: "Save allowances" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`The allowances of ${a.name} were saved`, { exact: true })).toBeVisible();
  await expect(rowA.getByRole("definition").nth(0)).toHaveText("3");
  await expect(rowA.locator("dt", { hasText: "Documents per month" }).locator("+ dd")).toHaveText("1 of 500");
  const limits = await page.request.get("/v1/render-limits", { headers: { "x-api-key": secret } });
  expect(limits.status()).toBe(200);
  expect(await limits.json()).toMatchObject({ maxActiveRenders: 3, documentsPerMonth: 500, suspended: false });

  // Suspend A (a render with its key answers 403), then unsuspend it.
  await rowA.getByRole("button", { name: `Suspend ${a.name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Suspend ${a.name}?` });
  await checkA11y(page);
  const suspendRequest = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
  await confirm.getByRole("button", { name: "Suspend" }).click();
  const action = await suspendRequest;
  await expect(confirm).toBeHidden();
  await expect(rowA.getByText("Suspended", { exact: true })).toBeVisible();
  // why poll: the service keeps a key's record for up to a second (spec: API key, "within about a second").
  const renderAnswer = async (html: string) => {
    const r = await page.request.post("/v1/renders", { data: { document: { html } }, headers: { "x-api-key": secret } });
    return `${r.status()} ${r.status() === 403 ? (await r.json()).error.message : ""}`.trim();
  };
  await expect.poll(() => renderAnswer("<p>no</p>"), { timeout: 5_000 }).toMatch(/^403 .*suspended/);
  await screenshots(page, "platform-suspended");

  // A's members still sign in and read (spec: suspended workspace); every console page says why
  // renders and keys are refused, and stops saying it once A is unsuspended.
  const memberOfA = await createPerson({ role: "member", workspaceId: a.id });
  const memberContext = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "127.9.9.8" } });
  const memberPage = await memberContext.newPage();
  const suspendedNote = memberPage.getByRole("status").filter({ hasText: "This workspace is suspended" });
  await signIn(memberPage, memberOfA.email, memberOfA.password);
  await expect(suspendedNote).toBeVisible();
  await memberPage.goto("/renders");
  await expect(memberPage.getByRole("heading", { level: 1, name: "Renders" })).toBeVisible();
  await expect(suspendedNote).toBeVisible();
  await checkA11y(memberPage);
  await screenshots(memberPage, "suspended-workspace");
  // Changing anything is refused (403, the spec's FORBIDDEN) with the reason, and nothing is created.
  await memberPage.goto("/templates");
  await memberPage.getByRole("button", { name: "Create template" }).first().click();
  const create = memberPage.getByRole("dialog", { name: "Create a template" });
  await create.getByLabel("Name").fill("Made while suspended");
  await create.getByRole("button", { name: "Create and open" }).click();
  await expect(create.getByRole("alert")).toHaveText("The workspace is suspended; contact the platform administrator");
  await expect(memberPage).toHaveURL(/\/templates$/);
  await memberPage.keyboard.press("Escape");
  await expect(create).toBeHidden();
  await expect(memberPage.getByRole("heading", { level: 2, name: "No templates yet" })).toBeVisible();

  await rowA.getByRole("button", { name: `Unsuspend ${a.name}` }).click();
  await page.getByRole("alertdialog", { name: `Unsuspend ${a.name}?` }).getByRole("button", { name: "Unsuspend" }).click();
  await expect(rowA.getByText("Active", { exact: true })).toBeVisible();
  await expect.poll(() => renderAnswer("<p>yes</p>"), { timeout: 5_000 }).toMatch(/^20[02]$/);
  await memberPage.goto("/renders");
  await expect(memberPage.getByRole("heading", { level: 1, name: "Renders" })).toBeVisible();
  await expect(suspendedNote).toHaveCount(0);
  await memberContext.close();

  // An owner who is not a platform administrator: no link, the page refuses (403), and the same
  // server action (its id and body as the administrator's browser sent them) is refused by the server.
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "127.9.9.9" } });
  try {
    const other = await context.newPage();
    const owner = await createPerson({ role: "owner" });
    await signIn(other, owner.email, owner.password);
    await expect(other.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Settings" })).toBeVisible();
    await expect(other.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Platform" })).toHaveCount(0);
    const res = await other.goto("/platform");
    expect(res?.status()).toBe(403);
    await expect(other.getByRole("heading", { level: 1, name: "You don’t have access to this page" })).toBeVisible();
    await expect(other.getByText("Only platform administrators can open")).toBeVisible();
    await checkA11y(other);
    await screenshots(other, "platform-refused-owner");

    const h = action.headers();
    const replay = await other.request.fetch("/platform", {
      method: "POST",
      headers: { "next-action": h["next-action"]!, "content-type": h["content-type"] ?? "text/plain;charset=UTF-8", accept: "text/x-component", origin: new URL(other.url()).origin },
      data: action.postData() ?? "",
    });
    const body = await replay.text();
    // The action's own answer (the verb's refusal), not the page's refusal text.
    expect(body).toContain('"code":"FORBIDDEN"');
    expect(body).toContain("Only platform administrators, signed in to the console, can do this");
  } finally {
    await context.close();
  }
  // The replay changed nothing: A is still active.
  await page.reload();
  await expect(rowA.getByText("Active", { exact: true })).toBeVisible();
});
