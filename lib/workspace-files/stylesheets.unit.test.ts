import { describe, expect, it } from "vitest";
import { cssRefs } from "./css-urls";
import { importStatement } from "./stylesheets";

/** The statement of the first reference in `css` and the text that replaces it around "X". */
function replaced(css: string) {
  const ref = cssRefs(css)[0]!;
  const s = importStatement(css, ref);
  return css.slice(0, s.start) + s.wrap("X") + css.slice(s.end);
}

describe("importStatement", () => {
  it("replaces the whole statement, through its semicolon, in both spellings", () => {
    expect(replaced('a{} @import "base.css"; b{}')).toBe("a{} \nX\n b{}");
    expect(replaced("@import url('base.css');b{}")).toBe("\nX\nb{}");
    expect(replaced("@import url(base.css)")).toBe("\nX\n");
  });

  it("keeps media queries, supports() and layers as blocks around the imported text", () => {
    expect(replaced('@import "p.css" print;')).toBe("@media print{\nX\n}");
    expect(replaced("@import url(p.css) screen and (min-width: 600px);")).toBe("@media screen and (min-width: 600px){\nX\n}");
    expect(replaced('@import "p.css" supports(display: grid);')).toBe("@supports (display: grid){\nX\n}");
    expect(replaced('@import "p.css" supports(selector(a > b)) print;')).toBe("@supports selector(a > b){@media print{\nX\n}}");
    expect(replaced('@import "p.css" layer(base) print;')).toBe("@layer base{@media print{\nX\n}}");
    expect(replaced('@import "p.css" layer;')).toBe("@layer{\nX\n}");
  });
});
