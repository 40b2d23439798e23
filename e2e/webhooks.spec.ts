import { Webhook } from "standardwebhooks";
import { systemCtx } from "../lib/auth/context";
import { createKeyAsSystem } from "../lib/keys";
import { startReceiver, type Receiver } from "../lib/testing/webhooks";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/**
 * Webhooks in the console: an admin adds an endpoint (a real receiver on loopback; the e2e servers
 * allow private networks), copies the secret shown once, sends a test event the receiver verifies,
 * sees a render's delivery on the endpoint's page and redelivers it (same webhook-id), disables and
 * enables it, rotates the secret (both signatures for 24 hours) and deletes it after confirming.
 */

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test("an admin adds an endpoint, tests it, sees and redelivers a delivery, disables, rotates and deletes it", async ({ page, context }) => {
  test.setTimeout(300_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const admin = await createPerson({ role: "admin" });
  await signIn(page, admin.email, admin.password);

  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No webhook endpoints yet" })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "webhooks-empty");

  // A refused URL: the reason is shown, nothing is saved.
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const form = page.getByRole("dialog", { name: "Add a webhook endpoint" });
  await form.getByLabel("URL").fill("http://169.254.169.254/latest");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText(/cloud metadata address/).first()).toBeVisible();

  await form.getByLabel("URL").fill(receiver.url);
  await form.getByLabel("Description (optional)").fill("Billing");
  await form.getByRole("checkbox", { name: "render.cancelled" }).click();
  await checkA11y(page);
  await screenshots(page, "webhooks-create");
  await form.getByRole("button", { name: "Add endpoint" }).click();

  const shown = page.getByRole("dialog", { name: "Endpoint created" });
  await expect(shown.getByText("It will not be shown again")).toBeVisible();
  const secret = await shown.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await shown.getByRole("button", { name: "Copy secret" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await checkA11y(page);
  await screenshots(page, "webhooks-secret");
  await expectNoSideScroll(page);
  await shown.getByRole("button", { name: "Done" }).click();

  const row = page.getByRole("row", { name: new RegExp(receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")) });
  await expect(row.getByText("Enabled")).toBeVisible();
  await expect(row.getByText("render.succeeded")).toBeVisible();
  await expect(row.getByText("render.cancelled")).toHaveCount(0);
  await screenshots(page, "webhooks-list");
  await expectNoSideScroll(page);

  // Send test event: the receiver verifies the signature with standardwebhooks.
  await row.getByRole("button", { name: `Send a test event to ${receiver.url}` }).click();
  await expect(page.getByText("Test event delivered", { exact: true })).toBeVisible();
  const [test1] = await receiver.waitFor(1);
  expect(new Webhook(secret).verify(test1!.body, test1!.headers as Record<string, string>)).toMatchObject({ type: "webhook.test" });

  // A render ends: its delivery shows on the endpoint's page.
  const key = await createKeyAsSystem(systemCtx(admin.workspaceId, "e2e"), "e2e webhooks", ["render:create", "render:read"], null);
  const render = await fetch(`${baseURL()}/v1/renders`, {
    method: "POST",
    headers: { "x-api-key": key.secret, "content-type": "application/json" },
    body: JSON.stringify({ document: { html: "<h1>Invoice</h1>" }, waitMs: 30_000 }),
  });
  const renderId = ((await render.json()) as { id: string }).id;
  const [, event] = await receiver.waitFor(2);
  expect(new Webhook(secret).verify(event!.body, event!.headers as Record<string, string>)).toMatchObject({ type: "render.succeeded", data: { renderId } });

  await row.getByRole("link", { name: receiver.url }).click();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")) })).toBeVisible();
  const delivery = page.getByRole("row", { name: new RegExp(renderId) });
  await expect(delivery.getByText("Delivered")).toBeVisible();
  await expect(delivery.getByText("HTTP 200")).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "webhooks-deliveries");
  await expectNoSideScroll(page);

  await delivery.getByRole("button", { name: /^Redeliver/ }).click();
  await expect(page.getByText("The endpoint answered HTTP 200.", { exact: true })).toBeVisible();
  const [, , again] = await receiver.waitFor(3);
  expect(again!.headers["webhook-id"]).toBe(event!.headers["webhook-id"]);
  await expect(delivery.getByRole("cell", { name: "2", exact: true })).toBeVisible();

  // Disable, then enable.
  await page.getByRole("button", { name: `Disable ${receiver.url}` }).click();
  await expect(page.getByText("Endpoint disabled", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Disabled")).toBeVisible();
  await page.getByRole("button", { name: `Enable ${receiver.url}` }).click();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Enabled")).toBeVisible();

  // Rotate: the new secret is shown once; for 24 hours both verify.
  await page.getByRole("button", { name: `Rotate the secret of ${receiver.url}` }).click();
  await expect(page.getByRole("alertdialog")).toContainText("24 hours");
  await page.getByRole("alertdialog").getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("dialog", { name: "Secret rotated" });
  const fresh = await rotated.getByLabel("Signing secret").inputValue();
  expect(fresh).not.toBe(secret);
  await screenshots(page, "webhooks-rotated");
  await rotated.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: `Send a test event to ${receiver.url}` }).click();
  const [, , , test2] = await receiver.waitFor(4);
  for (const s of [secret, fresh]) expect(() => new Webhook(s).verify(test2!.body, test2!.headers as Record<string, string>)).not.toThrow();

  // Delete after confirming: back to the empty list.
  await page.getByRole("button", { name: `Delete ${receiver.url}` }).click();
  await expect(page.getByRole("alertdialog")).toContainText("discards its pending deliveries");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("heading", { name: "No webhook endpoints yet" })).toBeVisible();
});
