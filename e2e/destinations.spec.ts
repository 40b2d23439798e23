import { startS3rver, S3RVER_KEYS, type TestS3 } from "../lib/testing/s3";
import { baseURL, checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { expectNoSideScroll } from "./layout";

/**
 * Storage destinations in the console: an admin adds a bucket (a real s3rver on loopback; the
 * test servers allow private networks), sees the test upload's result, a render lands in the
 * bucket, a change that fails its test upload shows the store's reason and saves nothing, and the
 * destination is deleted after a confirmation. Members are refused (roles.spec.ts, e2e/pages.ts).
 */

const BUCKET = "console-bucket";
/** s3rver checks the access key ID but not V4 signatures, so any secret passes; this one must never be shown. */
const SECRET = "e2e-secret-never-shown-Qw7";
let s3: TestS3;
test.beforeAll(async () => {
  s3 = await startS3rver([BUCKET]);
});
test.afterAll(async () => {
  await s3?.stop();
});

test("an admin adds a destination, a render lands in it, a bad change is refused with the store's reason, and the destination is deleted", async ({ page }) => {
  test.setTimeout(240_000);
  const admin = await createPerson({ role: "admin" });
  await signIn(page, admin.email, admin.password);

  await page.goto("/destinations");
  await expect(page.getByRole("heading", { level: 1, name: "Storage destinations" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No storage destinations yet" })).toBeVisible();
  await checkA11y(page);
  await screenshots(page, "destinations-empty");

  await page.getByRole("button", { name: "Add destination" }).click();
  const form = page.getByRole("dialog", { name: "Add a storage destination" });
  await form.getByLabel("Name").fill("Invoices archive");
  await form.getByLabel("Bucket").fill(BUCKET);
  await form.getByLabel("Endpoint (optional)").fill(s3.endpoint);
  await form.getByLabel("Prefix (optional)").fill("console/invoices");
  await form.getByRole("checkbox", { name: "Path-style addressing" }).click();
  await form.getByLabel("Access key ID").fill(S3RVER_KEYS.accessKeyId);
  await form.getByLabel("Secret access key").fill(SECRET);
  await checkA11y(page);
  await screenshots(page, "destinations-create");
  await form.getByRole("button", { name: "Test and add" }).click();

  const result = page.getByRole("dialog", { name: "Test upload succeeded" });
  await expect(result.getByRole("status")).toContainText("console/invoices/.service-connection-test");
  await expect(result.getByRole("status")).toContainText("deleted it again");
  await checkA11y(page);
  await screenshots(page, "destinations-tested");
  await result.getByRole("button", { name: "Done" }).click();
  await expect(result).toBeHidden();

  const row = page.getByRole("row", { name: /Invoices archive/ });
  await expect(row).toContainText(`${BUCKET}/console/invoices/`);
  await expect(row).toContainText(s3.endpoint);
  expect(await page.content()).not.toContain(SECRET);
  await checkA11y(page);
  await screenshots(page, "destinations-list");
  await expectNoSideScroll(page);

  // A program renders into it with a key of the workspace.
  const key = await page.evaluate(async () => {
    const res = await fetch("/v1/api-keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "e2e", scopes: ["render:create"] }) });
    return ((await res.json()) as { secret: string }).secret;
  });
  const render = await fetch(`${baseURL()}/v1/renders`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ document: { html: "<h1>Into the bucket</h1>" }, destination: { name: "invoices archive" }, waitMs: 30_000 }),
  });
  const body = (await render.json()) as { id: string; state: string; result: { destination: { key: string } } };
  expect(body.state).toBe("succeeded");
  expect(body.result.destination.key).toBe(`console/invoices/${body.id}.pdf`);
  expect(await s3.object(BUCKET, `console/invoices/${body.id}.pdf`)).not.toBeNull();

  // A change whose test upload fails: the store's reason is shown, and nothing is saved.
  await row.getByRole("button", { name: "Edit Invoices archive" }).click();
  const edit = page.getByRole("dialog", { name: "Edit “Invoices archive”" });
  await edit.getByLabel("Bucket").fill("no-such-bucket");
  await edit.getByRole("button", { name: "Test and save" }).click();
  await expect(edit.getByRole("alert")).toContainText("Enter a secret access key again"); // a bucket change needs the secret again
  await edit.getByLabel("Secret access key").fill(SECRET);
  await edit.getByRole("button", { name: "Test and save" }).click();
  await expect(edit.getByRole("alert")).toContainText("NoSuchBucket");
  await expect(edit.getByLabel("Bucket")).toHaveAttribute("aria-invalid", "true");
  await checkA11y(page);
  await screenshots(page, "destinations-test-failed");
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toContainText(`${BUCKET}/console/invoices/`);

  // A rename runs no test upload and closes at once.
  await row.getByRole("button", { name: "Edit Invoices archive" }).click();
  await page.getByRole("dialog", { name: "Edit “Invoices archive”" }).getByLabel("Name").fill("Invoices");
  await page.getByRole("button", { name: "Test and save" }).click();
  await expect(page.getByRole("row", { name: /Invoices/ })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByRole("button", { name: "Delete Invoices" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete “Invoices”?" });
  await expect(confirm).toContainText("Objects already in the bucket stay");
  await confirm.getByRole("button", { name: "Delete destination" }).click();
  await expect(page.getByRole("heading", { name: "No storage destinations yet" })).toBeVisible();
  expect(await s3.object(BUCKET, `console/invoices/${body.id}.pdf`)).not.toBeNull();
});
