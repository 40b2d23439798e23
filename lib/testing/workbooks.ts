/**
 * Workbooks made by the tests, part by part, as Excel writes them: an invoice sheet with
 * placeholders in shared strings, a repeated row with a formula, a total below it, a merged cell,
 * a conditional format, a defined name, a table, a chart with its drawing, a shared formula, a pivot
 * cache and table on a sheet of their own, and calcChain.xml. Read back with readWorkbook.
 */
import { inflate, readZip, ZipWriter } from "../zip/zip";
import { attrs, elements, textOf, unescapeXml } from "../workbooks/xml";

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export type InvoiceWorkbookOptions = { extraStrings?: string[]; rows?: string; sheet2Rows?: string };

/** The invoice workbook (see the file's comment). Row 4 repeats over `lines`. */
export function invoiceWorkbook(options: InvoiceWorkbookOptions = {}): Buffer {
  const strings = ["Invoice {{number}}", "{{customer.name}}", "Item", "Qty", "Price", "Total", "{{#each lines}}{{name}}", "{{qty}}", "{{price}}{{/each}}", "Grand total", "Thank you, {{customer.name}}!", "Region", ...(options.extraStrings ?? [])];
  const s = (text: string) => strings.indexOf(text);
  const sst = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${NS} count="${strings.length}" uniqueCount="${strings.length}">${strings.map((t) => `<si><t>${esc(t)}</t></si>`).join("")}</sst>`;
  const sheet1 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet ${NS}><dimension ref="A1:E12"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols><col min="1" max="1" width="30" customWidth="1"/></cols><sheetData>
<row r="1" spans="1:5"><c r="A1" s="1" t="s"><v>${s("Invoice {{number}}")}</v></c><c r="B1" t="s"><v>${s("{{customer.name}}")}</v></c></row>
<row r="3" spans="1:5"><c r="A3" t="s"><v>${s("Item")}</v></c><c r="B3" t="s"><v>${s("Qty")}</v></c><c r="C3" t="s"><v>${s("Price")}</v></c><c r="D3" t="s"><v>${s("Total")}</v></c></row>
<row r="4" spans="1:5"><c r="A4" t="s"><v>${s("{{#each lines}}{{name}}")}</v></c><c r="B4" t="s"><v>${s("{{qty}}")}</v></c><c r="C4" s="2" t="s"><v>${s("{{price}}{{/each}}")}</v></c><c r="D4" s="2"><f>B4*C4</f><v>0</v></c></row>
<row r="6" spans="1:5"><c r="A6" t="s"><v>${s("Grand total")}</v></c><c r="D6" s="2"><f>SUM(D4:D4)</f><v>0</v></c></row>
<row r="7" spans="1:5"><c r="D7"><f>D6*1.2</f><v>0</v></c><c r="E7"><f t="shared" ref="E7:E8" si="0">D6+1</f><v>1</v></c></row>
<row r="8" spans="1:5"><c r="A8" t="s"><v>${s("Thank you, {{customer.name}}!")}</v></c><c r="E8"><f t="shared" si="0"/><v>1</v></c></row>${options.rows ?? ""}
</sheetData><conditionalFormatting sqref="D4:D4"><cfRule type="expression" dxfId="0" priority="1"><formula>D4&gt;100</formula></cfRule></conditionalFormatting><mergeCells count="2"><mergeCell ref="A8:D8"/><mergeCell ref="B4:B4"/></mergeCells><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><drawing r:id="rId1"/><tableParts count="1"><tablePart r:id="rId2"/></tableParts></worksheet>`;
  const sheet2 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet ${NS}><dimension ref="A1"/><sheetData><row r="1"><c r="A1" t="s"><v>${s("Region")}</v></c></row>${options.sheet2Rows ?? ""}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
  const files: [string, string][] = [
    [
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/><Override PartName="/xl/tables/table1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/><Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/><Override PartName="/xl/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/><Override PartName="/xl/pivotCache/pivotCacheDefinition1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheDefinition+xml"/><Override PartName="/xl/pivotTables/pivotTable1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotTable+xml"/></Types>`,
    ],
    ["_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    [
      "xl/workbook.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook ${NS}><sheets><sheet name="Invoice" sheetId="1" r:id="rId1"/><sheet name="Pivot" sheetId="2" r:id="rId2"/></sheets><definedNames><definedName name="Lines">Invoice!$A$4:$D$4</definedName><definedName name="GrandTotal">Invoice!$D$6</definedName></definedNames><calcPr calcId="191029"/><pivotCaches><pivotCache cacheId="1" r:id="rId6"/></pivotCaches></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId5" Type="${REL}/calcChain" Target="calcChain.xml"/><Relationship Id="rId6" Type="${REL}/pivotCacheDefinition" Target="pivotCache/pivotCacheDefinition1.xml"/></Relationships>`,
    ],
    ["xl/worksheets/sheet1.xml", sheet1],
    ["xl/worksheets/sheet2.xml", sheet2],
    [
      "xl/worksheets/_rels/sheet1.xml.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/drawing" Target="../drawings/drawing1.xml"/><Relationship Id="rId2" Type="${REL}/table" Target="../tables/table1.xml"/></Relationships>`,
    ],
    [
      "xl/worksheets/_rels/sheet2.xml.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/pivotTable" Target="../pivotTables/pivotTable1.xml"/></Relationships>`,
    ],
    ["xl/sharedStrings.xml", sst],
    [
      "xl/styles.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet ${NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="14"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><dxfs count="1"><dxf><font><b/></font></dxf></dxfs></styleSheet>`,
    ],
    ["xl/calcChain.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<calcChain ${NS}><c r="D4" i="1"/><c r="D6"/><c r="D7"/></calcChain>`],
    [
      "xl/tables/table1.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<table ${NS} id="1" name="Lines" displayName="Lines" ref="A3:D4" totalsRowShown="0"><autoFilter ref="A3:D4"/><tableColumns count="4"><tableColumn id="1" name="Item"/><tableColumn id="2" name="Qty"/><tableColumn id="3" name="Price"/><tableColumn id="4" name="Total"/></tableColumns><tableStyleInfo name="TableStyleMedium2" showRowStripes="1"/></table>`,
    ],
    [
      "xl/drawings/drawing1.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:twoCellAnchor><xdr:from><xdr:col>0</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>9</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>5</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>24</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId1" xmlns:r="${REL}"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`,
    ],
    [
      "xl/drawings/_rels/drawing1.xml.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/chart" Target="../charts/chart1.xml"/></Relationships>`,
    ],
    [
      "xl/charts/chart1.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/><c:cat><c:strRef><c:f>Invoice!$A$4:$A$4</c:f></c:strRef></c:cat><c:val><c:numRef><c:f>Invoice!$D$4:$D$4</c:f></c:numRef></c:val></c:ser><c:axId val="1"/><c:axId val="2"/></c:barChart></c:plotArea></c:chart></c:chartSpace>`,
    ],
    [
      "xl/pivotCache/pivotCacheDefinition1.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<pivotCacheDefinition ${NS} r:id="rId1" refreshedVersion="8" recordCount="1"><cacheSource type="worksheet"><worksheetSource ref="A3:D4" sheet="Invoice"/></cacheSource><cacheFields count="2"><cacheField name="Item" numFmtId="0"><sharedItems/></cacheField><cacheField name="Total" numFmtId="0"><sharedItems containsNumber="1" minValue="0" maxValue="0"/></cacheField></cacheFields></pivotCacheDefinition>`,
    ],
    [
      "xl/pivotTables/pivotTable1.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<pivotTableDefinition ${NS} name="PivotTable1" cacheId="1" dataCaption="Values"><location ref="A3:B4" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/><pivotFields count="2"><pivotField axis="axisRow" showAll="0"><items count="1"><item t="default"/></items></pivotField><pivotField dataField="1" showAll="0"/></pivotFields><rowFields count="1"><field x="0"/></rowFields><dataFields count="1"><dataField name="Sum of Total" fld="1" baseField="0" baseItem="0"/></dataFields></pivotTableDefinition>`,
    ],
  ];
  const w = new ZipWriter();
  for (const [name, text] of files) w.add(name, text);
  return Buffer.concat(w.finish());
}

export type ReadCell = { value?: string; formula?: string; type?: string; style?: string };
export type ReadWorkbook = {
  parts: Map<string, Buffer>;
  text(name: string): string;
  /** Cells of a sheet part by reference ("A4"): the text of strings (shared or inline) or the number, and the formula. */
  cells(sheetPart: string): Map<string, ReadCell>;
};

/** A workbook read back part by part and cell by cell, as a test checks what a person would open. */
export function readWorkbook(bytes: Buffer): ReadWorkbook {
  const limits = { maxEntries: 10_000, maxTotalBytes: 500_000_000, maxRatio: 10_000, maxNameBytes: 1024 };
  const budget = { left: limits.maxTotalBytes };
  const parts = new Map(readZip(bytes, limits).map((e) => [e.name, inflate(e, limits, budget)]));
  const text = (name: string) => {
    const b = parts.get(name);
    if (!b) throw new Error(`no part ${name}`);
    return b.toString("utf8");
  };
  const strings = parts.has("xl/sharedStrings.xml") ? [...elements(text("xl/sharedStrings.xml"), "si")].map((si) => textOf(si.inner ?? "")) : [];
  const cells = (sheetPart: string) => {
    const out = new Map<string, ReadCell>();
    for (const c of elements(text(sheetPart), "c")) {
      const a = attrs(c.tag);
      const inner = c.inner ?? "";
      const f = /<f\b[^>]*>([\s\S]*?)<\/f>/.exec(inner)?.[1];
      const v = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      const type = a.get("t");
      const value = type === "s" ? strings[Number(v)] : type === "inlineStr" ? textOf(/<is>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? "") : v === undefined ? undefined : unescapeXml(v);
      out.set(a.get("r")!, { value, formula: f === undefined ? undefined : unescapeXml(f), type, style: a.get("s") });
    }
    return out;
  };
  return { parts, text, cells };
}
