import { describe, expect, it } from "vitest";
import { readableHbsError } from "./hbs-problems";

// Handlebars' own messages (handlebars 4.7's precompile), as the sandbox answers them.
const expecting = "Expecting 'CLOSE_RAW_BLOCK', 'CLOSE', 'CLOSE_UNESCAPED', 'OPEN_SEXPR', 'CLOSE_SEXPR', 'ID', 'OPEN_BLOCK_PARAMS', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', 'SEP', got 'INVALID'";
const values = "Expecting 'OPEN_SEXPR', 'ID', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', got 'CLOSE'";

describe("Handlebars parse errors in words", () => {
  it.each([
    [`Parse error on line 2:\n...le}}</h1><p>{{title}</p><p>never</p>\n----------------------^\n${expecting}`, "Parse error on line 2: “{{title}” is not closed; end it with }}."],
    [`template: Parse error on line 2:\n...le}}</h1><p>{{title}</p><p>never</p>\n----------------------^\n${expecting}`, "template: Parse error on line 2: “{{title}” is not closed; end it with }}."],
    ["Parse error on line 2:\n{{#if a}}x\n----------^\nExpecting 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', got 'EOF'", "Parse error on line 2: the file ends inside a block; close it with {{/…}}."],
    ["Parse error on line 1:\n{{title\n--^\nExpecting 'ID', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', got 'INVALID'", "Parse error on line 1: “{{title” is not closed; end it with }}."],
    [`Parse error on line 1:\n{{> }}\n----^\n${values}`, "Parse error on line 1, at “{{> }}”: expected (, a name, a string, a number, or …, found }}."],
    [`Parse error on line 1:\na {{foo bar=}} b\n------------^\n${values}`, "Parse error on line 1, at “{{foo bar=}}”: expected (, a name, a string, a number, or …, found }}."],
  ])("%j", (raw, readable) => {
    expect(readableHbsError(raw)).toBe(readable);
  });

  it("leaves other messages as they are", () => {
    expect(readableHbsError("if doesn't match each - 1:3")).toBe("if doesn't match each - 1:3");
    expect(readableHbsError("Unexpected token ';' (line 2)")).toBe("Unexpected token ';' (line 2)");
  });
});
