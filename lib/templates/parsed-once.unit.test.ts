import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parsedOnce } from "./parsed-once";

const Content = z.strictObject({ title: z.string(), rows: z.array(z.strictObject({ n: z.number() })), size: z.string().default("A4") });

describe("parsedOnce", () => {
  it("parses a stored object once and answers the same value for it after", () => {
    let parses = 0;
    const parse = parsedOnce(Content.transform((c) => (parses++, c)));
    const stored = { title: "Invoice", rows: [{ n: 1 }] };
    const first = parse(stored);
    expect(first).toEqual({ title: "Invoice", rows: [{ n: 1 }], size: "A4" });
    expect(parse(stored)).toBe(first);
    expect(parses).toBe(1);
    // Another stored object with equal JSON is another version's: parsed on its own.
    expect(parse({ title: "Invoice", rows: [{ n: 1 }] })).not.toBe(first);
    expect(parses).toBe(2);
  });

  it("answers a value frozen all the way down, so that no render can change the next one's", () => {
    const value = parsedOnce(Content)({ title: "Invoice", rows: [{ n: 1 }] });
    expect(() => ((value as { title: string }).title = "x")).toThrow(TypeError);
    expect(() => value.rows.push({ n: 2 })).toThrow(TypeError);
    expect(() => ((value.rows[0] as { n: number }).n = 2)).toThrow(TypeError);
    expect(value).toEqual({ title: "Invoice", rows: [{ n: 1 }], size: "A4" });
  });

  it("throws the schema's error for stored JSON that does not fit, each time", () => {
    const parse = parsedOnce(Content);
    const bad = { title: 1, rows: [] };
    expect(() => parse(bad)).toThrow(z.ZodError);
    expect(() => parse(bad)).toThrow(z.ZodError);
    expect(() => parse(null)).toThrow(z.ZodError);
  });
});
