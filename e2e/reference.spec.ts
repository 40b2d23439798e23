import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";

/**
 * The API reference: the OpenAPI document as a console page, for every role. A content editor (the
 * role with the fewest rights) opens it from the navigation, finds an operation by its resource,
 * reads its scope and body, follows a named schema to its entry, and the raw document answers
 * beside it, and the webhook events Folio sends. Fits at 1280 and 390 px.
 */
test("a content editor reads the API reference: resources, an operation's scope and body, a schema, and the raw document", async ({ page }) => {
  test.slow(); // a long page: axe and two widths over every operation
  const editor = await createPerson({ role: "content_editor" });
  await signIn(page, editor.email, editor.password);
  await page.getByRole("link", { name: "API reference" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const resources = page.getByRole("navigation", { name: "Resources" });
  await resources.getByRole("link", { name: "Renders", exact: true }).click();
  await expect(page).toHaveURL(/#tag-renders$/);
  const create = page.locator("#postRenders");
  await expect(create.getByRole("heading", { name: /post\s*\/v1\/renders$/i })).toBeVisible();
  await expect(create.getByText("render:create", { exact: true })).toBeVisible();
  await expect(create.getByText("Idempotency-Key", { exact: true })).toBeVisible();
  await expect(create.getByRole("cell", { name: "templateVersionId" })).toBeVisible();

  // The answer's named schema links to its entry among the schemas.
  await page.locator("#getRendersById").getByRole("link", { name: "Render", exact: true }).first().click();
  await expect(page).toHaveURL(/#schema-Render$/);
  const render = page.getByRole("region", { name: "Render", exact: true });
  await expect(render.getByRole("cell", { name: "state" })).toBeVisible();
  await expect(page.getByRole("region", { name: "MCP", exact: true })).toBeVisible();

  // The webhook events Folio sends, with their signature headers and body.
  await resources.getByRole("link", { name: "Webhook events", exact: true }).click();
  const succeeded = page.locator("#renderSucceeded");
  await expect(succeeded.getByRole("heading", { name: /render\.succeeded\s*event Folio sends to your endpoint/i })).toBeVisible();
  await expect(succeeded.getByText("webhook-signature", { exact: true })).toBeVisible();

  await checkA11y(page);
  await screenshots(page, "reference");

  const raw = await page.request.get("/v1/openapi.json");
  expect(raw.status()).toBe(200);
  expect((await raw.json()).openapi).toMatch(/^3\.1\./);
  await expect(page.getByRole("link", { name: "openapi.json" })).toHaveAttribute("href", "/v1/openapi.json");
});
