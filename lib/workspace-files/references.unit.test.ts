import { describe, expect, it } from "vitest";
import { referencePath, workspaceReferences } from "./references";

describe("referencePath", () => {
  it("drops the query and fragment and decodes percent-escapes", () => {
    expect(referencePath("fonts/Inter.eot?#iefix")).toBe("fonts/Inter.eot");
    expect(referencePath("img/logo.svg#mark")).toBe("img/logo.svg");
    expect(referencePath("Inter%20Bold.woff2")).toBe("Inter Bold.woff2");
    expect(referencePath("100%.css")).toBe("100%.css");
  });

  it("names nothing for data:, absolute and fragment-only URLs", () => {
    expect(referencePath("data:font/woff2;base64,AA")).toBeUndefined();
    expect(referencePath("https://example.com/a.css")).toBeUndefined();
    expect(referencePath("#clip")).toBeUndefined();
    expect(referencePath("?v=1")).toBeUndefined();
  });
});

describe("workspaceReferences", () => {
  it("keeps the url() and @import references that name workspace paths", () => {
    const css = `@import "base.css"; @import url(data:text/css,a); .a { background: url("../img/a%20b.png?v=2") } .b { clip-path: url(#c) }`;
    expect(workspaceReferences(css).map((r) => [r.kind, r.path])).toEqual([
      ["import", "base.css"],
      ["url", "../img/a b.png"],
    ]);
  });
});
