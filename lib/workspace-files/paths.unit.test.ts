import { describe, expect, it } from "vitest";
import { nameProblem, resolvePath } from "./paths";

describe("resolvePath", () => {
  it("resolves from the folder, from the root with a leading slash, and through . and ..", () => {
    expect(resolvePath(["brand"], "print.css")).toEqual(["brand", "print.css"]);
    expect(resolvePath(["brand", "letters"], "../fonts/Inter.woff2")).toEqual(["brand", "fonts", "Inter.woff2"]);
    expect(resolvePath(["brand"], "/shared/./base.css")).toEqual(["shared", "base.css"]);
    expect(resolvePath([], "a//b.css")).toEqual(["a", "b.css"]);
  });

  it("refuses a path that climbs above the root or names nothing", () => {
    expect(resolvePath([], "../x.css")).toBeNull();
    expect(resolvePath(["a"], "../../x.css")).toBeNull();
    expect(resolvePath(["a"], "")).toBeNull();
    expect(resolvePath(["a"], "/")).toBeNull();
  });
});

describe("nameProblem", () => {
  it("accepts ordinary names and refuses slashes, dots, control characters and long names", () => {
    expect(nameProblem("print.css", 120)).toBeUndefined();
    expect(nameProblem("a/b", 120)).toMatch(/\//);
    expect(nameProblem("..", 120)).toMatch(/\.\./);
    expect(nameProblem("a\nb", 120)).toMatch(/control/);
    expect(nameProblem("x".repeat(81), 80)).toMatch(/1 to 80/);
    expect(nameProblem(" x", 80)).toMatch(/spaces/);
  });
});
