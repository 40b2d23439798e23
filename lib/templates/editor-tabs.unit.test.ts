import { describe, expect, it } from "vitest";
import { fromTabs, parseData, tabOfPath, toTabs, type Content } from "./editor-tabs";

const stored: Content = {
  composition: { root: { type: "text", text: "a" }, components: { logo: { name: "Logo", root: { type: "text", text: "L" } } }, stylesheets: ["a.css"], footer: "f" },
  settings: { locale: "de-CH" },
};

describe("editor tabs over content", () => {
  it("shows root alone in composition.json and keeps components and stylesheets on the way back", () => {
    const tabs = toTabs(stored);
    expect(JSON.parse(tabs.composition)).toEqual({ root: { type: "text", text: "a" } });
    expect(tabs).toMatchObject({ header: "", footer: "f" });
    const built = fromTabs({ ...tabs, composition: JSON.stringify({ root: { type: "text", text: "b" } }), header: "<b>h</b>", footer: "" }, stored);
    expect(built).toEqual({
      ok: true,
      content: {
        composition: { root: { type: "text", text: "b" }, components: stored.composition.components, stylesheets: ["a.css"], header: "<b>h</b>" },
        settings: { locale: "de-CH" },
      },
    });
  });

  it("leaves out empty settings the draft did not have, and says which tab does not parse", () => {
    const plain: Content = { composition: { root: { type: "text", text: "x" } } };
    expect(fromTabs(toTabs(plain), plain)).toEqual({ ok: true, content: plain });
    expect(fromTabs({ ...toTabs(plain), composition: "{" }, plain)).toMatchObject({ ok: false, tab: "composition" });
    expect(fromTabs({ ...toTabs(plain), composition: '{"root":{},"components":{}}' }, plain)).toMatchObject({ ok: false, tab: "composition", message: expect.stringContaining("components") });
    expect(fromTabs({ ...toTabs(plain), settings: "[" }, plain)).toMatchObject({ ok: false, tab: "settings" });
  });

  it("reads sample data as an object and maps error paths to tabs", () => {
    expect(parseData('{"a":1}')).toEqual({ ok: true, data: { a: 1 } });
    expect(parseData("[]")).toMatchObject({ ok: false });
    expect(tabOfPath("content.composition.root.children.0.type")).toBe("composition");
    expect(tabOfPath("content.composition.footer")).toBe("footer");
    expect(tabOfPath("content.settings.margins.topMm")).toBe("settings");
    expect(tabOfPath("customer.name")).toBe("data");
  });
});
