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
