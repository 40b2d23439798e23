import { describe, expect, it } from "vitest";
import { cssRefs, isWorkspacePath } from "./css-urls";

describe("cssRefs", () => {
  it("finds quoted and bare url() values and @import strings, skipping comments", () => {
    const css = `/* url(skip.png) */ @import "base.css"; @font-face { src: url("fonts/Inter.woff2") format("woff2"), url(fonts/Inter.woff); }
      .logo { background: url('img/logo.png') }`;
    expect(cssRefs(css).map((r) => [r.kind, r.url])).toEqual([
      ["import", "base.css"],
      ["url", "fonts/Inter.woff2"],
      ["url", "fonts/Inter.woff"],
      ["url", "img/logo.png"],
    ]);
    const r = cssRefs(css)[1]!;
    expect(css.slice(r.start, r.end)).toBe('url("fonts/Inter.woff2")');
  });

  it("tells workspace paths from data:, absolute and fragment URLs", () => {
    expect(isWorkspacePath("fonts/a.woff2")).toBe(true);
    expect(isWorkspacePath("/shared/a.css")).toBe(true);
    expect(isWorkspacePath("data:font/woff2;base64,AA")).toBe(false);
    expect(isWorkspacePath("https://example.com/a.css")).toBe(false);
    expect(isWorkspacePath("//example.com/a.css")).toBe(false);
    expect(isWorkspacePath("#clip")).toBe(false);
  });
});
