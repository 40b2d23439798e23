import { describe, expect, it } from "vitest";
import { safeNextPath, signInHref } from "./next-path";

describe("safeNextPath: where sign-in may send a person", () => {
  it.each([
    ["/templates", "/templates"],
    ["/templates/tpl_1/edit?tab=data#x", "/templates/tpl_1/edit?tab=data#x"],
    ["/", "/"],
  ])("keeps the console path %s", (raw, want) => expect(safeNextPath(raw)).toBe(want));

  it.each([
    ["an absolute URL", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example/x"],
    ["a backslash that browsers read as a slash", "/\\evil.example"],
    ["a tab inside the double slash", "/\t/evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "templates"],
    ["nothing", ""],
    ["the sign-in page itself", "/sign-in?next=/x"],
    ["next-auth's endpoints", "/api/auth/signout"],
  ])("answers / for %s", (_name, raw) => expect(safeNextPath(raw)).toBe("/"));

  it("builds the sign-in address that comes back", () => {
    expect(signInHref("/renders?state=failed")).toBe("/sign-in?next=%2Frenders%3Fstate%3Dfailed");
    expect(signInHref("/")).toBe("/sign-in");
    expect(signInHref("https://evil.example")).toBe("/sign-in");
  });
});
