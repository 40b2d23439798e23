/**
 * Workbook templates filled for real: the placeholders planned from the uploaded file, their values
 * computed in the sandbox, and the file written back, then read cell by cell as a person opening it
 * would see it (values, formulas, styles, repeated rows, merged cells) with the parts that must keep
 * working around them (chart, table, pivot cache, defined names).
 */
import { afterAll, describe, expect, it } from "vitest";
import { rejected } from "../testing/app-error";
import { invoiceWorkbook, readWorkbook } from "../testing/workbooks";
import { stopSandbox } from "../sandbox";
import { fillWorkbook, pixelSize, planWorkbook, WorkbookError, type FillImage } from "./fill";
import { PNG_1X1 } from "../testing/assets";
import { workbookValues, type WorkbookCode } from "./values";
import { readZip } from "../zip/zip";

afterAll(() => stopSandbox());

const invoice = { number: "INV-7", customer: { name: "Ann & Co <Ltd>" }, lines: [{ name: "Paper", qty: 2, price: 3.5 }, { name: "Ink", qty: 1, price: 20 }, { name: "Pens", qty: 10, price: 0.25 }] };

async function filled(data: unknown, code: WorkbookCode = {}, bytes = invoiceWorkbook(), images: Record<string, FillImage> = {}) {
  const plan = planWorkbook(bytes);
  const { values } = await workbookValues(plan, code, data);
  return { bytes: Buffer.concat(await fillWorkbook(bytes, plan, values, images)), plan };
}

describe("workbook templates", () => {
  it("lists the placeholders by sheet and row, with the repeated row and its expression", () => {
    const plan = planWorkbook(invoiceWorkbook());
    expect(plan.sheets.map((s) => [s.name, s.rows.length])).toEqual([["Invoice", 3], ["Pivot", 0]]);
    expect(plan.sheets[0]!.rows[1]).toEqual({ row: 4, each: "lines", cells: [{ ref: "A4", col: 1, source: "{{name}}" }, { ref: "B4", col: 2, source: "{{qty}}" }, { ref: "C4", col: 3, source: "{{price}}" }] });
    expect(plan.placeholders).toEqual(["{{number}}", "{{customer.name}}", "{{#each lines}}", "{{name}}", "{{qty}}", "{{price}}"]);
  });

  it("fills values, repeats the row per item and moves everything below it", async () => {
    const { bytes } = await filled(invoice);
    const book = readWorkbook(bytes);
    const cells = book.cells("xl/worksheets/sheet1.xml");
    const value = (ref: string) => cells.get(ref)?.value;
    expect(value("A1")).toBe("Invoice INV-7");
    expect(cells.get("A1")!.style).toBe("1");
    expect(value("B1")).toBe("Ann & Co <Ltd>");
    expect(["A3", "B3", "C3", "D3"].map(value)).toEqual(["Item", "Qty", "Price", "Total"]);
    // Three copies of row 4, numbers as numbers, style and the row's own formula following each copy.
    expect([4, 5, 6].map((r) => [value(`A${r}`), value(`B${r}`), value(`C${r}`), cells.get(`C${r}`)!.style, cells.get(`D${r}`)!.formula])).toEqual([
      ["Paper", "2", "3.5", "2", "B4*C4"],
      ["Ink", "1", "20", "2", "B5*C5"],
      ["Pens", "10", "0.25", "2", "B6*C6"],
    ]);
    expect(cells.get("B4")!.type).toBeUndefined();
    // The price's number format (style 2: "$"#,##0.00) is the template's, in styles.xml as it was.
    expect(book.text("xl/styles.xml")).toContain('<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>');
    expect(book.text("xl/styles.xml")).toContain('<numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/>');
    expect(cells.get("A4")!.type).toBe("inlineStr");
    // Below: moved by two rows, the total's range grown to the last copy, later formulas following.
    expect(value("A8")).toBe("Grand total");
    expect(cells.get("D8")!.formula).toBe("SUM(D4:D6)");
    expect(cells.get("D9")!.formula).toBe("D8*1.2");
    // The shared formula written in full for each cell, moved.
    expect([cells.get("E9")!.formula, cells.get("E10")!.formula]).toEqual(["D8+1", "D9+1"]);
    expect(value("A10")).toBe("Thank you, Ann & Co <Ltd>!");
    const sheet = book.text("xl/worksheets/sheet1.xml");
    expect(sheet).toContain('<mergeCell ref="A10:D10"/>');
    expect(sheet).toContain('<mergeCell ref="B4:B4"/><mergeCell ref="B5:B5"/><mergeCell ref="B6:B6"/>');
    expect(sheet).toContain('<conditionalFormatting sqref="D4:D6">');
    expect(sheet).toContain("<formula>D4&gt;100</formula>");
    expect(sheet).toContain('<dimension ref="A1:E14"/>');
  });

  it("keeps the chart, table, defined names and pivot table pointing at the grown rows, and refreshes on open", async () => {
    const source = invoiceWorkbook();
    const book = readWorkbook((await filled(invoice, {}, source)).bytes);
    expect(book.text("xl/charts/chart1.xml")).toContain("<c:f>Invoice!$A$4:$A$6</c:f>");
    expect(book.text("xl/charts/chart1.xml")).toContain("<c:f>Invoice!$D$4:$D$6</c:f>");
    expect(book.text("xl/drawings/drawing1.xml")).toMatch(/<xdr:from><xdr:col>0<\/xdr:col><xdr:colOff>0<\/xdr:colOff><xdr:row>11<\/xdr:row>[\s\S]*<xdr:to>[\s\S]*<xdr:row>26<\/xdr:row>/);
    expect(book.text("xl/tables/table1.xml")).toContain('ref="A3:D6"');
    expect(book.text("xl/tables/table1.xml")).toContain('<autoFilter ref="A3:D6"/>');
    const workbook = book.text("xl/workbook.xml");
    expect(workbook).toContain('<definedName name="Lines">Invoice!$A$4:$D$6</definedName>');
    expect(workbook).toContain('<definedName name="GrandTotal">Invoice!$D$8</definedName>');
    expect(workbook).toContain('<calcPr calcId="191029" fullCalcOnLoad="1"/>');
    const pivot = book.text("xl/pivotCache/pivotCacheDefinition1.xml");
    expect(pivot).toMatch(/<pivotCacheDefinition [^>]*refreshOnLoad="1"/);
    expect(pivot).toContain('<worksheetSource ref="A3:D6" sheet="Invoice"/>');
    expect(book.parts.has("xl/pivotTables/pivotTable1.xml")).toBe(true);
    // calcChain dropped with its relationship and content type; parts with nothing to change copied as stored.
    expect(book.parts.has("xl/calcChain.xml")).toBe(false);
    expect(book.text("[Content_Types].xml")).not.toContain("calcChain");
    expect(book.text("xl/_rels/workbook.xml.rels")).not.toContain("calcChain");
    const limits = { maxEntries: 100, maxTotalBytes: 1e8, maxRatio: 1000, maxNameBytes: 1024 };
    const before = new Map(readZip(source, limits).map((e) => [e.name, e.raw]));
    for (const e of readZip((await filled(invoice, {}, source)).bytes, limits)) {
      if (["xl/styles.xml", "xl/sharedStrings.xml", "xl/pivotTables/pivotTable1.xml", "xl/worksheets/sheet2.xml"].includes(e.name)) expect(e.raw.equals(before.get(e.name)!)).toBe(true);
    }
  });

  it("leaves the row empty for an empty list, so the total, table and chart keep their ranges", async () => {
    const book = readWorkbook((await filled({ ...invoice, lines: [] })).bytes);
    const cells = book.cells("xl/worksheets/sheet1.xml");
    expect(["A4", "B4", "C4"].map((r) => cells.get(r)?.value)).toEqual([undefined, undefined, undefined]);
    expect(cells.get("D4")!.formula).toBe("B4*C4");
    expect(cells.get("A6")!.value).toBe("Grand total");
    expect(cells.get("D6")!.formula).toBe("SUM(D4:D4)");
    expect(book.text("xl/tables/table1.xml")).toContain('ref="A3:D4"');
  });

  it("runs helpers.js and beforeRender scripts in the sandbox, and keeps values from writing Folio's separators", async () => {
    const code = {
      helpers: "function upper(s) { return String(s).toUpperCase(); }",
      scripts: [{ name: "lines", source: "function beforeRender(data) { data.lines.push({ name: 'Free\\u001e\\u001f gift', qty: 1, price: 0 }); }" }],
    };
    const bytes = invoiceWorkbook({ extraStrings: ["{{upper customer.name}}"], rows: `<row r="12"><c r="A12" t="s"><v>12</v></c></row>` });
    const cells = readWorkbook((await filled(invoice, code, bytes)).bytes).cells("xl/worksheets/sheet1.xml");
    expect(cells.get("A7")!.value).toBe("Free gift");
    expect(cells.get("A15")!.value).toBe("ANN & CO <LTD>");
  });

  it("names the sheet and cell of a template error, and refuses what is not a workbook or an unclosed repeated row", async () => {
    const bytes = invoiceWorkbook({ extraStrings: ["{{#if x}}never closed"], rows: `<row r="12"><c r="B12" t="s"><v>12</v></c></row>` });
    const e = await rejected(filled(invoice, {}, bytes));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toMatch(/sheet Invoice, cell B12/);
    expect(() => planWorkbook(Buffer.from("PK\u0003\u0004 not a zip"))).toThrow(WorkbookError);
    const unclosed = invoiceWorkbook({ extraStrings: ["{{#each items}}{{a}}"], rows: `<row r="12"><c r="B12" t="s"><v>12</v></c></row>` });
    expect(() => planWorkbook(unclosed)).toThrow(/sheet "Invoice", cell B12: \{\{#each items\}\} repeats the row only when the row's last placeholder cell ends with \{\{\/each\}\}/);
  });

  it("places images where {{sheetImage}} stands: in the sheet's drawing, moved with its rows, or in a drawing of its own", async () => {
    const logo = "ast_logo12345678";
    const bytes = invoiceWorkbook({
      extraStrings: ['{{sheetImage "ast_logo12345678"}}', "{{sheetImage content.logo}}"],
      rows: `<row r="12"><c r="B12" s="1" t="s"><v>12</v></c></row>`,
      sheet2Rows: `<row r="3"><c r="C3" t="s"><v>13</v></c></row>`,
    });
    const book = readWorkbook((await filled({ ...invoice, content: { logo } }, {}, bytes, { [logo]: { bytes: PNG_1X1, mediaType: "image/png" } })).bytes);
    expect(book.parts.get(`xl/media/folio-${logo}.png`)!.equals(PNG_1X1)).toBe(true);
    // Sheet 1 had a drawing (the chart): the picture joins it, at B14 (row 12 moved by the two rows added).
    const drawing = book.text("xl/drawings/drawing1.xml");
    expect(drawing).toContain("<c:chart");
    expect(drawing).toMatch(/<xdr:oneCellAnchor><xdr:from><xdr:col>1<\/xdr:col><xdr:colOff>0<\/xdr:colOff><xdr:row>13<\/xdr:row>[\s\S]*r:embed="rIdFolio1"/);
    expect(book.text("xl/drawings/_rels/drawing1.xml.rels")).toContain(`<Relationship Id="rIdFolio1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/folio-${logo}.png"/>`);
    expect(book.cells("xl/worksheets/sheet1.xml").get("B14")).toEqual({ value: undefined, formula: undefined, type: undefined, style: "1" });
    // Sheet 2 had none: a drawing of its own, named by the sheet, with a content type.
    expect(book.text("xl/worksheets/sheet2.xml")).toMatch(/<pageMargins [^>]*\/><drawing r:id="rIdFolio1"\/><\/worksheet>/);
    expect(book.text("xl/worksheets/_rels/sheet2.xml.rels")).toContain('Target="../drawings/drawingFolio1.xml"');
    expect(book.text("xl/drawings/drawingFolio1.xml")).toMatch(/<xdr:col>2<\/xdr:col><xdr:colOff>0<\/xdr:colOff><xdr:row>2<\/xdr:row>/);
    const types = book.text("[Content_Types].xml");
    expect(types).toContain('<Default Extension="png" ContentType="image/png"/>');
    expect(types).toContain('<Override PartName="/xl/drawings/drawingFolio1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>');
    expect(pixelSize(PNG_1X1)).toEqual({ width: 1, height: 1 });
    await expect(filled({ ...invoice, content: { logo: "ast_other1234567" } }, {}, bytes, { [logo]: { bytes: PNG_1X1, mediaType: "image/png" } })).rejects.toThrow(/names ast_other1234567, which is not one of the template's images/);
  });

  it("streams a sheet of 10,000 rows", async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => ({ name: `Item ${i}`, qty: i, price: 1.5 }));
    const { bytes } = await filled({ ...invoice, lines });
    const cells = readWorkbook(bytes).cells("xl/worksheets/sheet1.xml");
    expect(cells.get("A10003")!.value).toBe("Item 9999");
    expect(cells.get("D10003")!.formula).toBe("B10003*C10003");
    expect(cells.get("D10005")!.formula).toBe("SUM(D4:D10003)");
  });
});
