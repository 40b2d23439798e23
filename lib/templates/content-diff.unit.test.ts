import { describe, expect, it } from "vitest";
import { canonicalJson, contentChanges } from "./content-diff";

// Issue 24 item 4: "Changes against the draft" compares content, not the text order of its keys.
describe("contentChanges", () => {
  const version = {
    composition: { root: { type: "text", text: "Hello" }, stylesheets: ["a.css"] },
    settings: { pageSize: "A4", margins: { top: "20mm", bottom: "20mm" }, locale: "en-GB" },
  };
  const reordered = {
    settings: { locale: "en-GB", margins: { bottom: "20mm", top: "20mm" }, pageSize: "A4" },
    composition: { stylesheets: ["a.css"], root: { text: "Hello", type: "text" } },
  };

  it("finds no changes in a version equal to the draft with its keys in another order", () => {
    expect(contentChanges(version, reordered)).toEqual({ same: true });
    expect(canonicalJson(version)).toBe(canonicalJson(reordered));
  });

  it("shows only the line that changed, not the whole block", () => {
    const changed = { ...reordered, settings: { ...reordered.settings, pageSize: "Letter" } };
    const r = contentChanges(version, changed);
    if (r.same) throw new Error("expected changes");
    expect(r.parts.filter((p) => p.removed).map((p) => p.value.trim())).toEqual(['"pageSize": "A4"']);
    expect(r.parts.filter((p) => p.added).map((p) => p.value.trim())).toEqual(['"pageSize": "Letter"']);
  });

  it("keeps array order: a reordered list is a change", () => {
    expect(contentChanges({ stylesheets: ["a.css", "b.css"] }, { stylesheets: ["b.css", "a.css"] }).same).toBe(false);
  });
});
