import { checkA11y, createPerson, expect, screenshots, signIn, test } from "./fixtures";
import { everyRole, pages } from "./pages";

/**
 * Each role signs in as a fresh person and opens every console page: a page the role may open
 * shows its heading, passes axe and fits at 1280 and 390 px; a page it may not open answers 403 with
 * the refusal (axe and widths checked on the first), and the server refuses the page's action too.
 */

const roleLabel = { owner: "owner", admin: "admin", member: "member", content_editor: "content editor" } as const;

test.describe("public pages", () => {
  for (const p of pages.filter((x) => x.public)) {
    test(`${p.name} opens signed out`, async ({ page }) => {
      const res = await page.goto(p.path);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
      // The tab shows Folio's mark: the page links it, and /favicon.ico (asked for by pages that link none) is there too.
      await expect(page.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveCount(1);
      const ico = await page.request.get("/favicon.ico");
      expect([ico.status(), ico.headers()["content-type"]]).toEqual([200, "image/x-icon"]);
      await checkA11y(page);
      await screenshots(page, p.name);
    });
  }
});

for (const role of everyRole) {
  test(`as ${roleLabel[role]}: opens every console page allowed, and is refused the others`, async ({ page }) => {
    // why: one test visits every page (axe and two screenshots each), so its time grows with the registry.
    test.setTimeout(60_000 + pages.length * 30_000);
    const person = await createPerson({ role });
    await signIn(page, person.email, person.password);
    // why once: every refused page is the same refusal page; axe and the widths are checked on the first.
    let refusalChecked = false;
    for (const p of pages.filter((x) => !x.public)) {
      await test.step(`${p.path} (${p.roles.includes(role) ? "allowed" : "refused"})`, async () => {
        const res = await page.goto(p.path);
        if (p.roles.includes(role)) {
          expect(res?.status(), p.path).toBe(200);
          await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
          await checkA11y(page);
          await screenshots(page, `${p.name}-${role}`);
        } else {
          expect(res?.status(), p.path).toBe(403);
          await expect(page.getByRole("heading", { level: 1, name: "You don’t have access to this page" })).toBeVisible();
          await expect(page.getByText(`Your role (${roleLabel[role]}) cannot`)).toBeVisible();
          if (!refusalChecked) {
            await checkA11y(page);
            await screenshots(page, `refused-${role}`);
            refusalChecked = true;
          }
          if (p.refusedAction) {
            const a = p.refusedAction;
            const answer = await page.request.fetch(a.path, { method: a.method, data: a.body, headers: { origin: new URL(page.url()).origin } });
            expect(answer.status(), `${a.method} ${a.path} as ${role}`).toBe(403);
          }
        }
      });
    }
  });
}
