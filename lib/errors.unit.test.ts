import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, fromZodError } from "./errors";

describe("fromZodError", () => {
  const Item = z.strictObject({ data: z.string(), inner: z.strictObject({ n: z.number() }).optional() });
  const Body = z.strictObject({ name: z.string(), items: z.array(Item) });

  const detailsOf = (value: unknown, prefix: string[] = []) => {
    const r = Body.safeParse(value);
    if (r.success) throw new Error("expected a failure");
    return fromZodError(r.error, prefix);
  };

  it("names a value inside an array with the index as a number: items.3.data", () => {
    const e = detailsOf({ name: "n", items: [{ data: "a" }, { data: "b" }, { data: "c" }, { data: 5 }] });
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.status).toBe(400);
    expect(e.details).toEqual([{ path: "items.3.data", message: expect.any(String) }]);
    expect(e.message).toMatch(/^items\.3\.data: /);
  });

  it("names each unknown field by its full path, nested ones included", () => {
    const e = detailsOf({ name: "n", bogus: 1, other: 2, items: [{ data: "a", inner: { n: 1, deep: true } }] });
    expect(e.details?.map((d) => d.path).sort()).toEqual(["bogus", "items.0.inner.deep", "other"]);
    for (const d of e.details ?? []) expect(d.message).toBe("is not a known field");
    expect(e.message).toContain("(and 2 more)");
  });

  it("prefixes paths, as the wrapper does for the query", () => {
    const r = z.strictObject({ limit: z.number() }).safeParse({ limit: "x", bogus: "1" });
    if (r.success) throw new Error("expected a failure");
    expect(fromZodError(r.error, ["query"]).details?.map((d) => d.path).sort()).toEqual(["query.bogus", "query.limit"]);
  });

  it("leaves out the path of an error about the whole value", () => {
    const r = Body.safeParse("not an object");
    if (r.success) throw new Error("expected a failure");
    const e = fromZodError(r.error);
    expect(e.details).toHaveLength(1);
    expect(e.details?.[0]?.path).toBeUndefined();
  });
});
