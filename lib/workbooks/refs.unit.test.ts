import { describe, expect, it } from "vitest";
import { columnLetters, columnNumber, moveFormula, moveSqref, RowMap, translateFormula } from "./refs";

describe("cell references when a row repeats", () => {
  // Row 4 repeats three times (two rows added); row 10 of 'Q1 data' repeats zero times.
  const own = new RowMap([{ row: 4, copies: 3 }]);
  const sheets = new Map([["invoice", own], ["q1 data", new RowMap([{ row: 10, copies: 0 }])]]);

  it("moves rows below, grows ranges that end on the repeated row, and leaves the rest", () => {
    const ctx = { own, sheets };
    expect(moveFormula("SUM(D4:D4)+D6-$D$2*D3", ctx)).toBe("SUM(D4:D6)+D8-$D$2*D3");
    expect(moveFormula("SUM(D2:D5)", ctx)).toBe("SUM(D2:D7)");
    expect(moveFormula("'Q1 data'!B11+'Q1 data'!B9+Invoice!$A$5", ctx)).toBe("'Q1 data'!B10+'Q1 data'!B9+Invoice!$A$7");
    expect(moveFormula('IF(A5="B5",LOG10(A5),Other!A5)', ctx)).toBe('IF(A7="B5",LOG10(A7),Other!A5)');
    expect(moveFormula("Tax2024x*2+A1", ctx)).toBe("Tax2024x*2+A1");
    // Structured, external and 3D references are not this sheet's cells; sheet names ignore case.
    expect(moveFormula("SUM(Sales[FY2024])+Table1[[#This Row],[Q3]]+D5", ctx)).toBe("SUM(Sales[FY2024])+Table1[[#This Row],[Q3]]+D7");
    expect(moveFormula("[1]Invoice!A5+SUM(Invoice:Other!B5)+INVOICE!A5", ctx)).toBe("[1]Invoice!A5+SUM(Invoice:Other!B5)+INVOICE!A7");
  });

  it("inside a copy, the row's relative references to itself follow the copy", () => {
    const ctx = { own, sheets, copy: { row: 4, index: 2 } };
    expect(moveFormula("B4*C4+$B$4+SUM(A4:C4)+D5", ctx)).toBe("B6*C6+$B$4+SUM(A6:C6)+D7");
  });

  it("moves sqref lists and translates shared formulas", () => {
    expect(moveSqref("A4:C4 E8", own)).toBe("A4:C6 E10");
    expect(translateFormula("SUM($A1:B1)+C$2", 2, 1)).toBe("SUM($A3:C3)+D$2");
    expect([columnNumber("A"), columnNumber("Z"), columnNumber("AA"), columnNumber("XFD")]).toEqual([1, 26, 27, 16384]);
    expect(columnLetters(16384)).toBe("XFD");
  });
});
