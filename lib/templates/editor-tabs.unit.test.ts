import { describe, expect, it } from "vitest";
import { formFields, fromTabs, parseData, sameTabs, shortPath, tabOfPath, toTabs, translationLocaleProblem, type Content } from "./editor-tabs";
import { imageSlots, withImageAsset, withNewImage } from "./editor-images";

const stored: Content = {
  composition: { root: { type: "text", text: "a" }, components: { logo: { name: "Logo", root: { type: "text", text: "L" } } }, stylesheets: ["a.css"], footer: "f" },
  settings: { locale: "de-CH" },
};

describe("editor tabs over content", () => {
  it("shows root alone in composition.json and keeps components on the way back", () => {
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
    expect(tabOfPath("composition.stylesheets.1")).toBe("stylesheets");
    expect(tabOfPath("content.composition.stylesheets")).toBe("stylesheets");
    expect(tabOfPath("composition.root.children.2.assetId")).toBe("composition");
    expect(tabOfPath("content.translations.de")).toBe("translations");
    expect(shortPath("composition.root.children.2.assetId")).toBe("root.children.2.assetId");
    expect(shortPath("content.composition.stylesheets.0")).toBe("stylesheets.0");
  });
});

describe("stylesheets and translation files", () => {
  const content: Content = {
    composition: { root: { type: "text", text: "a" }, stylesheets: ["a.css", "b/c.css"] },
    translations: { de: { hi: "Hallo" }, "de-CH": { hi: "Grüezi" } },
  };

  it("ticks stylesheets in order and holds one JSON text per locale, and builds them back", () => {
    const tabs = toTabs(content);
    expect(tabs.stylesheets).toEqual(["a.css", "b/c.css"]);
    expect(tabs.translations.map((t) => [t.locale, JSON.parse(t.text)])).toEqual([["de", { hi: "Hallo" }], ["de-CH", { hi: "Grüezi" }]]);
    expect(fromTabs(tabs, content)).toEqual({ ok: true, content });
    const edited = { ...tabs, stylesheets: ["b/c.css"], translations: [{ locale: "fr", text: '{"hi":"Salut"}' }] };
    expect(sameTabs(edited, tabs)).toBe(false);
    expect(fromTabs(edited, content)).toEqual({
      ok: true,
      content: { composition: { root: { type: "text", text: "a" }, stylesheets: ["b/c.css"] }, translations: { fr: { hi: "Salut" } } },
    });
  });

  it("leaves out an empty list and no files, and names the locale whose file does not parse", () => {
    expect(fromTabs({ ...toTabs(content), stylesheets: [], translations: [] }, content)).toEqual({ ok: true, content: { composition: { root: { type: "text", text: "a" } } } });
    expect(fromTabs({ ...toTabs(content), translations: [{ locale: "de", text: "{" }] }, content)).toMatchObject({ ok: false, tab: "translations", locale: "de" });
    expect(fromTabs({ ...toTabs(content), translations: [{ locale: "de", text: "[1]" }] }, content)).toMatchObject({ ok: false, tab: "translations", message: "Translation de must be a JSON object" });
  });

  it("checks a new translation's locale as the save does", () => {
    expect(translationLocaleProblem("de-AT", ["de"])).toBeUndefined();
    expect(translationLocaleProblem("DE", ["de"])).toMatch(/already/);
    expect(translationLocaleProblem("not a tag", [])).toMatch(/language tag/);
    expect(translationLocaleProblem("x", [])).toMatch(/2 to 80/);
    expect(translationLocaleProblem("it", Array.from({ length: 20 }, (_, i) => `en-x-t${i}`))).toMatch(/at most 20/);
  });
});

describe("the image picker over composition.json", () => {
  const text = JSON.stringify({
    root: { type: "container", children: [{ type: "image", assetId: "ast_a" }, { type: "repeat", source: { path: ["x"] }, children: [{ type: "image", assetId: { path: ["logo"] } }], empty: [{ type: "image", assetId: "ast_b" }] }] },
  });

  it("lists image components in document order with where they are", () => {
    expect(imageSlots(text)).toEqual([
      { path: "root.children.0", assetId: "ast_a" },
      { path: "root.children.1.children.0", assetId: { path: ["logo"] } },
      { path: "root.children.1.empty.0", assetId: "ast_b" },
    ]);
    expect(imageSlots("{")).toBeUndefined();
  });

  it("sets an image's asset, or adds an image at the end of the root container (wrapping another root)", () => {
    const changed = withImageAsset(text, "root.children.1.empty.0", "ast_new")!;
    expect(imageSlots(changed)![2]).toEqual({ path: "root.children.1.empty.0", assetId: "ast_new" });
    expect(changed).toContain('\n  "root": {');
    expect(withImageAsset(text, "root.children.5", "ast_new")).toBeUndefined();
    const added = withNewImage(text, "ast_c")!;
    expect(added.path).toBe("root.children.2");
    expect(imageSlots(added.text)!.at(-1)).toEqual({ path: "root.children.2", assetId: "ast_c" });
    const wrapped = withNewImage(JSON.stringify({ root: { type: "text", text: "t" } }), "ast_c")!;
    expect(JSON.parse(wrapped.text)).toEqual({ root: { type: "container", children: [{ type: "text", text: "t" }, { type: "image", assetId: "ast_c", width: 160 }] } });
  });
});

describe("data schema, content fields and values in the tabs", () => {
  const stored: Content = {
    composition: { root: { type: "text", text: { path: ["content", "headline"] } } },
    dataSchema: { type: "object" },
    contentFields: [
      { name: "headline", type: "text", label: "Headline" },
      { name: "logo", type: "image", label: "Logo" },
    ],
    contentValues: { headline: "Hi", logo: "ast_1" },
  };

  it("round-trips, and a removed field's value goes with it", () => {
    const tabs = toTabs(stored);
    expect(tabs.dataSchema).toBe('{\n  "type": "object"\n}');
    expect(fromTabs(tabs, stored)).toEqual({ ok: true, content: stored });
    const fewer = fromTabs({ ...tabs, contentFields: JSON.stringify([{ name: "headline", type: "text", label: "Headline" }]) }, stored);
    expect(fewer.ok && fewer.content.contentValues).toEqual({ headline: "Hi" });
    const none = fromTabs({ ...tabs, dataSchema: "", contentFields: "[]" }, stored);
    expect(none.ok && Object.keys(none.content)).toEqual(["composition"]);
  });

  it("names the tab of a schema or fields that do not parse, and of server problems", () => {
    expect(fromTabs({ ...toTabs(stored), dataSchema: "[1]" }, stored)).toMatchObject({ ok: false, tab: "dataSchema" });
    expect(fromTabs({ ...toTabs(stored), contentFields: "{" }, stored)).toMatchObject({ ok: false, tab: "contentFields" });
    expect(tabOfPath("content.dataSchema.properties.a.$ref")).toBe("dataSchema");
    expect(tabOfPath("content.contentFields.0.name")).toBe("contentFields");
    expect(tabOfPath("contentValues.logo")).toBe("content");
  });

  it("offers the well-formed fields to the content form", () => {
    expect(formFields('[{"name":"a","type":"text","label":"A"},{"name":"b","type":"video","label":"B"},7]').map((f) => f.name)).toEqual(["a"]);
    expect(formFields("not json")).toEqual([]);
  });
});
