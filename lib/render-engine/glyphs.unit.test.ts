import { describe, expect, it } from "vitest";
import { Coverage, glyphsMissingWarning, parseFcCharsets, systemCoverage, uncovered } from "./glyphs";

describe("glyph coverage", () => {
  it("reads fontconfig's charset lists: single code points and ranges, one font a line", () => {
    const c = parseFcCharsets("20-7e a0-17f 20ac\n4e00-4e02 1f600\n");
    for (const cp of [0x20, 0x7e, 0xa0, 0x17f, 0x20ac, 0x4e00, 0x4e01, 0x4e02, 0x1f600]) expect(c.has(cp), cp.toString(16)).toBe(true);
    for (const cp of [0x1f, 0x7f, 0x180, 0x20ab, 0x4e03, 0x1f601, 0x110000, -1]) expect(c.has(cp), cp.toString(16)).toBe(false);
    // A long range fills whole words; its ends stay exact.
    const long = parseFcCharsets("3f-1041 10fff0-10ffff");
    for (const cp of [0x3f, 0x40, 0x5f, 0x60, 0x1000, 0x1041, 0x10fff0, 0x10ffff]) expect(long.has(cp), cp.toString(16)).toBe(true);
    for (const cp of [0x3e, 0x1042, 0x1060, 0x10ffef]) expect(long.has(cp), cp.toString(16)).toBe(false);
  });

  it("names the characters neither the system nor the render's fonts cover, in order, once", () => {
    const system = parseFcCharsets("4e00-9fff ffe5");
    const assetFont = Uint32Array.from([0x41, 0xe001, 0xe005]);
    expect(uncovered("中\uE000\uE001\u0378\uFFE5", system, [assetFont])).toEqual([0xe000, 0x378]);
    expect(uncovered("\u{1F600}", system)).toEqual([0x1f600]);
  });

  it("never counts Latin-1, white space, controls, or characters that need no glyph", () => {
    const none = new Coverage();
    // soft hyphen, ZWJ, ZWSP, LRM, a variation selector, an emoji tag, BOM, line separator, ideographic space, C1 control
    const invisible = "\u00ad\u200d\u200b\u200e\ufe0f\u{E0067}\ufeff\u2028\u3000\u0085";
    expect(uncovered(`Zürich ÿ \t\n${invisible}`, none)).toEqual([]);
    expect(uncovered("\u0100", none)).toEqual([0x100]);
  });

  it("words its warning with a count and at most 20 names", () => {
    expect(glyphsMissingWarning([0xe000, 0x378])).toEqual({ diagnostic: "font_glyphs_missing", message: "No font covers 2 characters: U+E000, U+0378" });
    expect(glyphsMissingWarning([0x10ffff]).message).toBe("No font covers 1 character: U+10FFFF");
    const many = Array.from({ length: 25 }, (_, i) => 0xe000 + i);
    expect(glyphsMissingWarning(many).message).toBe(`No font covers 25 characters: ${many.slice(0, 20).map((c) => `U+${c.toString(16).toUpperCase()}`).join(", ")}, and 5 more`);
  });

  it("reads the system set from fontconfig: Latin, CJK (Noto CJK) and U+FFE5 are covered, the Private Use Area is not", async () => {
    const system = (await systemCoverage())!;
    expect(system).toBeDefined();
    for (const ch of "AéΩЖ中日本語한국어\uFFE5") expect(system.has(ch.codePointAt(0)!), ch).toBe(true);
    expect(system.has(0xe000)).toBe(false);
    expect(system.has(0x378)).toBe(false); // unassigned
  });
});
