/**
 * The violations a person reads, from both places that apply a data schema: the console's
 * violations() in this process and the server's check in the sandbox's isolates (data-check.ts).
 * Both run lib/sandbox/violations.js, the isolates from the text host.mjs put in their snapshot;
 * these schemas show the two say the same, and what they say.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { afterAll, describe, expect, it } from "vitest";
import { stopSandbox } from "../sandbox";
import { schemaViolations } from "../sandbox/violations.js";
import { dataViolations } from "./data-check";
import { draftOf, violations } from "./data-schema";

afterAll(() => stopSandbox());

/** What the console says of `data`, and what the sandbox says. */
async function bothSay(schema: Record<string, unknown>, data: unknown) {
  const errors = new Validator(schema as Schema, draftOf(schema), false).validate(data).errors;
  const inConsole = errors.length ? violations(errors) : { details: [], more: false };
  const sandbox = await dataViolations(schema, data);
  return { inConsole, inSandbox: { details: sandbox.violations, more: sandbox.more } };
}

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const typeMessage = (found: string, expected: string) => `type "${found}" is invalid. Expected "${expected}"`;

describe("a data schema's violations, in the console and in the sandbox", () => {
  const cases: { name: string; schema: Record<string, unknown>; data: unknown; expected?: object }[] = [
    {
      name: "nested paths, through a $ref and an array index",
      schema: {
        type: "object",
        required: ["total"],
        properties: { customer: { type: "object", required: ["name"], properties: { address: { properties: { city: { type: "string", minLength: 2 } } } } }, lines: { type: "array", items: { $ref: "#/$defs/line" } } },
        $defs: { line: { properties: { qty: { type: "integer" } } } },
      },
      data: { customer: { address: { city: "x" } }, lines: [{ qty: 1 }, { qty: 1.5 }] },
    },
    {
      name: "anyOf and oneOf: the alternative's own error, not each branch's",
      schema: { properties: { status: { anyOf: [{ const: "paid" }, { const: "open" }] }, id: { oneOf: [{ type: "string" }, { type: "integer" }] }, kind: { not: { type: "string" } } } },
      data: { status: "gone", id: 1.5, kind: "x" },
    },
    {
      name: "additionalProperties false, and one path and message once (allOf repeating a rule)",
      schema: { properties: { a: {} }, additionalProperties: false, allOf: [{ properties: { a: { type: "string" } } }, { properties: { a: { type: "string" } } }] },
      data: { a: 1, b: 2, c: 3 },
      expected: {
        details: [
          { path: "a", message: typeMessage("number", "string") },
          { path: "b", message: "is not allowed by the template's data schema" },
          { path: "c", message: "is not allowed by the template's data schema" },
        ],
        more: false,
      },
    },
    {
      name: "a property name with / and ~ (and % and a space) is written as it is",
      schema: { properties: { "a/b": { type: "string" }, "c~d": { properties: { "e~1f": { type: "number" } } }, "50%": { type: "string" }, "a b": { type: "string" } } },
      data: { "a/b": 1, "c~d": { "e~1f": "x" }, "50%": 1, "a b": 2 },
      expected: {
        details: [
          { path: "a/b", message: typeMessage("number", "string") },
          { path: "c~d.e~1f", message: typeMessage("string", "number") },
          { path: "50%", message: typeMessage("number", "string") },
          { path: "a b", message: typeMessage("number", "string") },
        ],
        more: false,
      },
    },
    { name: "exactly 100 violations: all, no more", schema: { additionalProperties: { type: "string" } }, data: keys(100) },
    { name: "past 100: the first 100 and `more`", schema: { additionalProperties: { type: "string" } }, data: keys(150) },
    { name: "data that matches: nothing", schema: { type: "object" }, data: {}, expected: { details: [], more: false } },
  ];

  for (const { name, schema, data, expected } of cases) {
    it(name, async () => {
      const { inConsole, inSandbox } = await bothSay(schema, data);
      expect(inSandbox).toEqual(inConsole);
      if (expected) expect(inConsole).toEqual(expected);
    });
  }

  it("counts as the cases above say: 100 at most, `more` only past them", async () => {
    const exactly = await bothSay({ additionalProperties: { type: "string" } }, keys(100));
    expect([exactly.inConsole.details.length, exactly.inConsole.more]).toEqual([100, false]);
    const past = await bothSay({ additionalProperties: { type: "string" } }, keys(150));
    expect([past.inConsole.details.length, past.inConsole.more]).toEqual([100, true]);
    expect(past.inConsole.details[99]).toEqual({ path: "k99", message: typeMessage("number", "string") });
  });
});

describe("schemaViolations", () => {
  it("still says the data does not match when every error only wraps or branches", () => {
    const wrapper = { keyword: "properties", keywordLocation: "#/properties", instanceLocation: "#", error: "Property \"a\" does not match schema." };
    expect(schemaViolations([wrapper])).toEqual({ details: [{ message: "does not match the template's data schema" }], more: false });
    expect(schemaViolations([])).toEqual({ details: [], more: false });
  });
});
