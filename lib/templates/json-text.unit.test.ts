import { describe, expect, it } from "vitest";
import { jsonProblem, lineOfJsonPath, parseJsonText } from "./json-text";

describe("JSON text problems, in words at a line and column", () => {
  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', { line: 3, column: 3, message: "expected , or } after a property's value" }],
    ['{\n  "a": 1,\n}', { line: 3, column: 1, message: "a comma before } : remove it, JSON allows none after the last member" }],
    ['{\n  "a": \n}', { line: 3, column: 1, message: "expected a value before }" }],
    ["{\n  a: 1\n}", { line: 2, column: 3, message: "expected a property name in double quotes" }],
    ['{\n  "a" 1\n}', { line: 2, column: 7, message: 'expected : after the property name "a"' }],
    ['{"a": [1, 2', { line: 1, column: 12, message: "the text ends before the list does: a ] is missing" }],
    ['{"a": "x', { line: 1, column: 7, message: 'the string is not closed: a " is missing' }],
    ["{'a': 1}", { line: 1, column: 2, message: "strings and names take double quotes, not single ones" }],
    ['{"a": yes}', { line: 1, column: 7, message: "expected a value: a word other than true, false or null takes double quotes" }],
    ['{"a": 1}}', { line: 1, column: 9, message: "more text after the end of the JSON: one value only, or a comma or bracket too many" }],
    ["", { line: 1, column: 1, message: "the text ends where a value should be" }],
  ])("%j", (text, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonProblem(text)).toEqual(problem);
  });

  it("finds nothing wrong with what JSON.parse takes", () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"], "b": {}}', "[]", " 3 ", '"x"']) {
      expect(jsonProblem(text)).toBeUndefined();
      expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
    }
  });

  it("says where and what in one message", () => {
    expect(parseJsonText('{\n  "a": 1\n  "b": 2\n}')).toEqual({ ok: false, line: 3, message: "line 3, column 3: expected , or } after a property's value" });
  });
});

describe("the line of a data path in a JSON text", () => {
  const text = ['{', '  "title": "A",', '  "items": [', "    {", '      "name": "x",', '      "amount": "12"', "    },", "    3", "  ]", "}"].join("\n");

  it("is the member's key line, an item's line, or the nearest enclosing value's", () => {
    expect(lineOfJsonPath(text, "title")).toBe(2);
    expect(lineOfJsonPath(text, "items")).toBe(3);
    expect(lineOfJsonPath(text, "items.0")).toBe(4);
    expect(lineOfJsonPath(text, "items.0.amount")).toBe(6);
    expect(lineOfJsonPath(text, "items.1")).toBe(8);
    expect(lineOfJsonPath(text, "items.0.missing")).toBe(4);
  });

  it("is none for the whole document, a path the text does not reach, or a text that stops being JSON before it", () => {
    expect(lineOfJsonPath(text, "")).toBeUndefined();
    expect(lineOfJsonPath(text, "other")).toBeUndefined();
    expect(lineOfJsonPath('{"b": , "a": 1}', "a")).toBeUndefined();
  });
});
