import { expect, type Page } from "@playwright/test";

/**
 * The page does not scroll sideways at 1280 or 390 px (wide tables scroll inside their own box):
 * asserts the document is no wider than the viewport at both widths, then restores the viewport.
 */
export async function expectNoSideScroll(page: Page) {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const { scrollWidth, wide } = await page.evaluate(() => {
      // The outermost elements reaching past the viewport, to say what widens the page.
      const past = [...document.body.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1);
      const outermost = past.filter((e) => !past.some((o) => o !== e && o.contains(e)));
      const describe = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}.${[...e.classList].slice(0, 4).join(".")} (${Math.round(e.getBoundingClientRect().right)} px)`;
      return { scrollWidth: document.documentElement.scrollWidth, wide: outermost.slice(0, 5).map(describe) };
    });
    expect(scrollWidth, `page width at ${width} px on ${page.url()}; wider: ${wide.join(", ")}`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize(before);
}

/**
 * The table named `name` shows every column at 1280 px without scrolling; at 390 px, where it scrolls, it says
 * so (a line under it, the region's description) and shades the edge with more columns behind it.
 */
export async function expectTableFits(page: Page, name: string) {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  const region = page.getByRole("region", { name, exact: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect
    .poll(() => region.evaluate((e) => e.scrollWidth - e.clientWidth), { message: `the ${name} table is cut at 1280 px` })
    .toBeLessThanOrEqual(0);
  await expect(page.getByText("scroll the table sideways")).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(region).toHaveAccessibleDescription("More columns to the right: scroll the table sideways.");
  await expect(page.getByText("More columns to the right: scroll the table sideways.")).toBeVisible();
  await region.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
  await expect(region).toHaveAccessibleDescription("More columns to the left: scroll the table sideways.");
  await region.evaluate((e) => e.scrollTo({ left: 0 }));
  await page.setViewportSize(before);
}
