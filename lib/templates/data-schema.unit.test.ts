import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { checkData, DataSchema, schemaIssues } from "./data-schema";

const schema = {
  type: "object",
  required: ["customer", "total"],
  additionalProperties: false,
  properties: {
    customer: { type: "object", required: ["name"], properties: { name: { type: "string" }, "a.b/c": { type: "number" } } },
    total: { type: "number", minimum: 0 },
    lines: { type: "array", items: { $ref: "#/$defs/line" } },
    status: { anyOf: [{ const: "paid" }, { const: "open" }] },
  },
  $defs: { line: { type: "object", properties: { qty: { type: "integer" } } } },
};

function refusal(schema: Record<string, unknown>, data: unknown) {
  try {
    checkData(schema, data);
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("accepted");
}

describe("checkData", () => {
  it("accepts matching data and does nothing without a schema", () => {
    expect(() => checkData(schema, { customer: { name: "Ann" }, total: 1, lines: [{ qty: 2 }], status: "paid" })).not.toThrow();
    expect(() => checkData(undefined, { anything: 1 })).not.toThrow();
  });

  it("lists every violation by its dot-joined data path, leaves only, one per path and message", () => {
    const e = refusal(schema, { customer: { name: 5, "a.b/c": "x" }, lines: [{ qty: 1.5 }, { qty: 2 }, { qty: "x" }], status: "gone", extra: 1 });
    expect(e.code).toBe("BAD_REQUEST");
    const paths = e.details!.map((d) => d.path ?? "");
    expect(paths.sort()).toEqual(["", "customer.a.b/c", "customer.name", "extra", "lines.0.qty", "lines.2.qty", "status"].sort());
    expect(e.details!.find((d) => d.path === undefined)!.message).toContain("total");
    expect(e.details!.find((d) => d.path === "extra")!.message).toBe("is not allowed by the template's data schema");
    expect(e.message).toMatch(/^The data does not match the template's data schema: 7 values/);
  });

  it("caps the details at 100 and says there are more", () => {
    const many = { type: "object", additionalProperties: { type: "string" } };
    const data = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    const e = refusal(many, data);
    expect(e.details).toHaveLength(100);
    expect(e.message).toContain("More than 100 values");
  });
});

describe("schemaIssues and DataSchema", () => {
  it("accepts the drafts it applies and refuses others", () => {
    for (const uri of ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema#", "https://json-schema.org/draft/2019-09/schema"]) {
      expect(schemaIssues({ $schema: uri, type: "object" })).toEqual([]);
    }
    expect(schemaIssues({ $schema: "http://json-schema.org/draft-03/schema#" })[0]!.path).toEqual(["$schema"]);
  });

  it("refuses remote and dangling references, loops, bad patterns and types, with their paths", () => {
    expect(schemaIssues({ properties: { a: { $ref: "https://example.com/s.json" } } })).toEqual([{ path: ["properties", "a", "$ref"], message: expect.stringContaining("remote references are refused") }]);
    expect(schemaIssues({ $ref: "#/$defs/missing" })[0]!.message).toContain("not in the schema");
    expect(schemaIssues({ $ref: "#" })[0]!.message).toContain("loops");
    expect(schemaIssues({ properties: { a: { pattern: "(" } } })[0]!.path).toEqual(["properties", "a", "pattern"]);
    expect(schemaIssues({ type: "text" })[0]!.path).toEqual(["type"]);
    expect(schemaIssues({ properties: { a: { $id: "x" } } })[0]!.path).toEqual(["properties", "a", "$id"]);
    expect(schemaIssues(schema)).toEqual([]);
  });

  it("checks a schema whose pattern backtracks without end even on \"\" without running that pattern", () => {
    // "(?:|)" forty times tries 2^40 ways to match "", which is one of the trial values the root
    // applies to: the save's trial application must skip it.
    const hostile = { pattern: `^${"(?:|)".repeat(40)}x$`, properties: { a: { type: "string", pattern: `${"(?:|)".repeat(40)}y` } } };
    expect(schemaIssues(hostile)).toEqual([]);
    expect(schemaIssues({ ...hostile, $ref: "#" })[0]!.message).toContain("loops"); // the trial still finds loops
  });

  it("refuses a schema over 100,000 bytes", () => {
    const r = DataSchema.safeParse({ description: "x".repeat(100_001) });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toContain("at most 100,000");
  });
});
