import { describe, expect, it } from "vitest";
import { changedBeyondValues, changesValuesOnly, contentImages, withContent } from "./content-extras";
import { ComponentContent } from "./schema";

const fields = [
  { name: "headline", type: "text", label: "Headline", default: "Hello" },
  { name: "body", type: "multilineText", label: "Body" },
  { name: "logo", type: "image", label: "Logo", default: "ast_default" },
] as const;
const base = { composition: { root: { type: "text", text: { path: ["content", "headline"] } } }, contentFields: fields };

describe("content fields", () => {
  it("reads values, else defaults, else empty text; an image without either is absent; the template's content wins", () => {
    expect(withContent({ contentFields: [...fields] }, { a: 1, content: "caller's" })).toEqual({ a: 1, content: { headline: "Hello", body: "", logo: "ast_default" } });
    expect(withContent({ contentFields: [...fields], contentValues: { headline: "Hi", logo: "" } }, {})).toEqual({ content: { headline: "Hi", body: "" } });
    expect(withContent({}, { content: "kept" })).toEqual({ content: "kept" });
  });

  it("names the images fields show, values before defaults", () => {
    expect([...contentImages({ contentFields: [...fields], contentValues: { logo: "ast_new" } })]).toEqual([["ast_new", "contentValues.logo"]]);
    expect([...contentImages({ contentFields: [...fields] })]).toEqual([["ast_default", "contentFields.2.default"]]);
  });

  it("checks names, values and types at save", () => {
    const bad = ComponentContent.safeParse({
      ...base,
      contentFields: [...fields, { name: "headline", type: "text", label: "Again" }],
      contentValues: { headline: "two\nlines", nope: "x", logo: "not an id!" },
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual(["contentFields.3.name", "contentValues.headline", "contentValues.nope", "contentValues.logo"]);
    expect(ComponentContent.safeParse({ ...base, contentValues: { body: "two\nlines" } }).success).toBe(true);
  });

  it("a change is content only when nothing but contentValues differs, whatever the key order", () => {
    const a = { ...base, contentValues: { headline: "A" } };
    expect(changesValuesOnly(a, { contentValues: { headline: "B" }, contentFields: fields, composition: base.composition })).toBe(true);
    expect(changesValuesOnly(a, { ...a, contentFields: [fields[0]] })).toBe(false);
    expect(changesValuesOnly(a, { ...a, settings: { locale: "de" } })).toBe(false);
  });

  it("names the fields beyond the values that a change adds, changes or removes", () => {
    const a = { ...base, contentValues: { headline: "A" }, sampleData: [{ name: "one", data: { x: 1 } }] };
    expect(changedBeyondValues(a, { contentValues: { headline: "B" }, sampleData: [{ data: { x: 1 }, name: "one" }], contentFields: fields, composition: base.composition })).toEqual([]);
    expect(changedBeyondValues(a, { ...a, sampleData: [], settings: { locale: "de" } })).toEqual(["sampleData", "settings"]);
    const { contentFields: _gone, ...withoutFields } = a;
    expect(changedBeyondValues(a, withoutFields)).toEqual(["contentFields"]);
  });
});
