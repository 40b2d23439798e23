/**
 * Workbook templates at the level of their XML (docs/api.md, "Workbook templates"), as jsreport's
 * xlsx recipe fills them: the uploaded workbook is opened as the zip it is, its cells with
 * Handlebars placeholders are listed (planWorkbook), and the values the sandbox computed for them
 * are written back in place (fillWorkbook). A row whose first placeholder cell opens
 * `{{#each …}}` and whose last closes it repeats once per item, and everything below it moves down:
 * rows, formulas, merged cells, defined names, tables, conditional formats, data validations,
 * drawings' anchors and charts' ranges. Parts the fill has no reason to change are copied as they
 * were stored, byte for byte; calcChain.xml is dropped and the workbook set to calculate fully on
 * load, and pivot caches to refresh on load, so Excel brings every total, chart and pivot table up
 * to date when it opens the file.
 *
 * Runs in the helper processes (lib/helper-process/jobs.ts): the workbook is a caller's bytes.
 */
import { inflate, readZip, ZipError, ZipWriter, type ZipEntry, type ZipLimits } from "../zip/zip";
import { columnLetters, moveFormula, moveRange, moveSqref, parseCell, RowMap, translateFormula, type RefContext } from "./refs";
import { attrs, elements, escapeXml, folderOf, relationships, relsPathOf, setAttr, textOf, unescapeXml } from "./xml";

/** What a workbook template may hold (docs/api.md): generous for any workbook a person makes, far under a bomb. */
export const WORKBOOK_LIMITS: ZipLimits = { maxEntries: 5_000, maxTotalBytes: 100_000_000, maxRatio: 500, maxNameBytes: 1024 };

/** A workbook Folio cannot fill: the message says which part and why (400 BAD_REQUEST for callers). */
export class WorkbookError extends Error {
  override name = "WorkbookError";
}

export type PlanCell = { ref: string; col: number; source: string };
/** A template row with placeholders; `each` is the expression a repeated row iterates (`items`, `(sort lines)`). */
export type PlanRow = { row: number; each?: string; cells: PlanCell[] };
export type SheetPlan = { name: string; path: string; rows: PlanRow[] };
/** The placeholders of a workbook, sheet by sheet, and each distinct expression (for a person's list). */
export type WorkbookPlan = { sheets: SheetPlan[]; placeholders: string[] };

const SHEET_TYPE = /\/worksheet$/;
const CALC_CHAIN = /\/calcChain$/;

/** An opened workbook: its entries, inflated on demand within one budget. */
class Workbook {
  readonly entries: ZipEntry[];
  readonly byName: Map<string, ZipEntry>;
  private readonly budget = { left: WORKBOOK_LIMITS.maxTotalBytes };
  private readonly texts = new Map<string, string>();
  readonly sheets: { name: string; path: string }[] = [];
  readonly sharedStrings: string[] = [];

  constructor(bytes: Buffer) {
    try {
      this.entries = readZip(bytes, WORKBOOK_LIMITS);
    } catch (e) {
      if (e instanceof ZipError) throw new WorkbookError(`The workbook cannot be opened: ${e.message}`);
      throw e;
    }
    this.byName = new Map(this.entries.map((e) => [e.name, e]));
    const book = this.text("xl/workbook.xml");
    const rels = this.text("xl/_rels/workbook.xml.rels");
    if (book === undefined || rels === undefined || !this.byName.has("[Content_Types].xml")) {
      throw new WorkbookError("The file is not an Excel workbook (.xlsx): it has no xl/workbook.xml");
    }
    const targets = relationships(rels, "xl/");
    for (const s of elements(book, "sheet")) {
      const a = attrs(s.tag);
      const rel = targets.get(a.get("r:id") ?? "");
      if (!rel || !SHEET_TYPE.test(rel.type) || !this.byName.has(rel.target)) continue;
      this.sheets.push({ name: unescapeXml(a.get("name") ?? ""), path: rel.target });
    }
    const sst = this.text("xl/sharedStrings.xml");
    if (sst !== undefined) for (const si of elements(sst, "si")) this.sharedStrings.push(textOf(si.inner ?? ""));
  }

  text(name: string): string | undefined {
    const cached = this.texts.get(name);
    if (cached !== undefined) return cached;
    const e = this.byName.get(name);
    if (!e) return undefined;
    let t: string;
    try {
      t = inflate(e, WORKBOOK_LIMITS, this.budget).toString("utf8");
    } catch (err) {
      if (err instanceof ZipError) throw new WorkbookError(`The workbook cannot be opened: ${err.message}`);
      throw err;
    }
    this.texts.set(name, t);
    return t;
  }
}

type Cell = { tag: string; inner: string; col: number; text: string | undefined };
type Row = { tag: string; row: number; cells: Cell[] };
type Sheet = { head: string; rows: Row[]; tail: string };

/** A worksheet split into what comes before its rows, its rows with their cells, and what follows. */
function parseSheet(xml: string, strings: string[]): Sheet {
  const open = /<sheetData\s*\/>|<sheetData(?:\s[^>]*)?>/.exec(xml);
  if (!open) throw new WorkbookError("A worksheet has no sheetData");
  const selfClosed = open[0].endsWith("/>");
  const bodyStart = open.index + open[0].length;
  const close = selfClosed ? bodyStart : xml.indexOf("</sheetData>", bodyStart);
  if (close < 0) throw new WorkbookError("A worksheet's sheetData is not closed");
  const head = selfClosed ? `${xml.slice(0, open.index)}<sheetData>` : xml.slice(0, bodyStart);
  const tail = selfClosed ? `</sheetData>${xml.slice(bodyStart)}` : xml.slice(close);
  const rows: Row[] = [];
  let previous = 0;
  for (const r of elements(xml.slice(bodyStart, close), "row")) {
    const row = Number(attrs(r.tag).get("r") ?? previous + 1);
    previous = row;
    const cells: Cell[] = [];
    let previousCol = 0;
    for (const c of elements(r.inner ?? "", "c")) {
      const a = attrs(c.tag);
      const col = parseCell(a.get("r") ?? "")?.col ?? previousCol + 1;
      previousCol = col;
      const inner = c.inner ?? "";
      let text: string | undefined;
      const t = a.get("t");
      if (t === "s") text = strings[Number(/<v>(\d+)<\/v>/.exec(inner)?.[1] ?? -1)];
      else if (t === "inlineStr") text = textOf(/<is>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? "");
      cells.push({ tag: c.tag, inner, col, text });
    }
    rows.push({ tag: r.tag, row, cells });
  }
  return { head, rows, tail };
}

const EACH_OPEN = /^\s*\{\{#each\s+([\s\S]+?)\s*\}\}/;
const EACH_CLOSE = /\{\{\/each\s*\}\}\s*$/;
const count = (s: string, re: RegExp) => s.match(re)?.length ?? 0;

/** A row's template: its placeholder cells, and the loop when its first opens `{{#each}}` that its last closes. */
function planRow(sheetName: string, row: Row): PlanRow | undefined {
  const cells = row.cells
    .filter((c) => c.text?.includes("{{"))
    .map((c) => ({ ref: `${columnLetters(c.col)}${row.row}`, col: c.col, source: c.text! }));
  if (cells.length === 0) return undefined;
  const first = cells[0]!;
  const last = cells[cells.length - 1]!;
  const opensRow = count(first.source, /\{\{#each\b/g) > count(first.source, /\{\{\/each\b/g);
  if (!opensRow) return { row: row.row, cells };
  const where = `sheet ${JSON.stringify(sheetName)}, cell ${first.ref}`;
  const m = EACH_OPEN.exec(first.source);
  if (!m) throw new WorkbookError(`${where}: a row repeats when its first placeholder cell starts with {{#each …}}`);
  if (last === first || !EACH_CLOSE.test(last.source) || count(last.source, /\{\{\/each\b/g) <= count(last.source, /\{\{#each\b/g)) {
    throw new WorkbookError(`${where}: {{#each ${m[1]}}} repeats the row only when the row's last placeholder cell ends with {{/each}}`);
  }
  first.source = first.source.slice(m[0].length);
  last.source = last.source.replace(EACH_CLOSE, "");
  return { row: row.row, each: m[1]!, cells };
}

/**
 * The placeholders of a workbook template: every cell whose text holds `{{`, by sheet and row,
 * with the rows that repeat. Throws WorkbookError for a file that is not a workbook, a bomb, or a
 * repeated row whose `{{#each}}` does not close in the same row.
 */
export function planWorkbook(bytes: Uint8Array): WorkbookPlan {
  const book = new Workbook(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const sheets: SheetPlan[] = [];
  const placeholders = new Set<string>();
  for (const s of book.sheets) {
    const parsed = parseSheet(book.text(s.path)!, book.sharedStrings);
    const rows = parsed.rows.map((r) => planRow(s.name, r)).filter((r): r is PlanRow => r !== undefined);
    for (const r of rows) {
      if (r.each) placeholders.add(`{{#each ${r.each}}}`);
      for (const c of r.cells) for (const m of c.source.matchAll(/\{\{\{?([^}]*)\}?\}\}/g)) {
        const inner = m[1]!.trim();
        if (inner && !/^(\/|else\b|!)/.test(inner)) placeholders.add(m[0]);
      }
    }
    sheets.push({ name: s.name, path: s.path, rows });
  }
  return { sheets, placeholders: [...placeholders] };
}

/** The separators of the values the sandbox returns (lib/workbooks/source.ts): a row, a cell. */
export const ROW_MARK = "\u001e";
export const CELL_MARK = "\u001f";

/** Handlebars' escaping of {{…}} undone: the fill escapes for XML itself. */
function unescapeHandlebars(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#x27|#x60|#x3D);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#x60": "`", "#x3D": "=" })[e]!);
}

/** What `{{sheetImage id}}` writes (source.ts): the cell is left empty and the image placed at it. */
export const IMAGE_MARK = /^\s*folio-image:(ast_[0-9A-Za-z]{8,64})\s*$/;

const NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d+)?(?:[eE][+-]?\d{1,3})?$/;
const ONE_EXPRESSION = /^\s*\{\{\{?[^#/>!{}][^{}]*\}?\}\}\s*$/;

/** The values of one sheet's template rows: for each plan row, its copies, each the values of its cells. */
function decodeValues(plan: SheetPlan, text: string): string[][][] {
  const out: string[][][] = plan.rows.map(() => []);
  for (const record of text.split(ROW_MARK).slice(1)) {
    const [index, ...values] = record.split(CELL_MARK);
    const i = Number(index);
    const row = plan.rows[i];
    if (!Number.isInteger(i) || !row) throw new WorkbookError(`The values of sheet ${JSON.stringify(plan.name)} could not be read back (a helper wrote Folio's separators)`);
    out[i]!.push(values.map(unescapeHandlebars));
  }
  // why one empty copy for an empty list: the ranges that end on the row (a total's SUM, a table, a
  // chart) stay whole and read nothing, where removing the row would leave them empty or circular.
  plan.rows.forEach((r, i) => {
    if (r.each && out[i]!.length === 0) out[i]!.push(r.cells.map(() => ""));
  });
  return out;
}

/** A template cell with its value: a number when the cell is one expression that gave a number, else text. */
function valueCell(cell: Cell, ref: string, source: string, value: string | undefined): string {
  let tag = setAttr(setAttr(cell.tag, "r", ref), "t", undefined);
  if (tag.endsWith("/>")) tag = `${tag.slice(0, -2)}>`;
  if (value === undefined || value === "" || IMAGE_MARK.test(value)) return `${tag.replace(/>$/, "/>")}`;
  if (ONE_EXPRESSION.test(source) && NUMBER.test(value.trim())) return `${tag}<v>${value.trim()}</v></c>`;
  const space = /^\s|\s$|\n/.test(value) ? ' xml:space="preserve"' : "";
  return `${setAttr(tag, "t", "inlineStr")}<is><t${space}>${escapeXml(value)}</t></is></c>`;
}

type Shared = Map<string, { text: string; row: number; col: number }>;

/** The masters of a sheet's shared formulas, by si: a fill writes each cell's formula in full. */
function sharedFormulas(sheet: Sheet): Shared {
  const out: Shared = new Map();
  for (const r of sheet.rows) {
    for (const c of r.cells) {
      const f = /<f\b([^>]*)>([\s\S]*?)<\/f>/.exec(c.inner);
      if (!f) continue;
      const a = attrs(`<f${f[1]}>`);
      if (a.get("t") === "shared" && a.has("ref") && a.has("si")) out.set(a.get("si")!, { text: unescapeXml(f[2]!), row: r.row, col: c.col });
    }
  }
  return out;
}

/** A copied cell's XML with its reference and formula moved; shared formulas written in full. */
function movedCell(cell: Cell, ref: string, rowOfTemplate: number, shared: Shared, ctx: RefContext): string {
  const tag = setAttr(cell.tag, "r", ref);
  if (!cell.inner) return tag;
  const inner = cell.inner.replace(/<f\b([^>]*?)(?:\/>|>([\s\S]*?)<\/f>)/, (whole, rawAttrs: string, text: string | undefined) => {
    const a = attrs(`<f${rawAttrs}>`);
    let formula = text === undefined ? undefined : unescapeXml(text);
    if (a.get("t") === "shared") {
      const master = shared.get(a.get("si") ?? "");
      if (!master) return whole;
      formula = translateFormula(master.text, rowOfTemplate - master.row, cell.col - master.col);
      return `<f>${escapeXml(moveFormula(formula, ctx))}</f>`;
    }
    if (formula === undefined) return whole;
    let fTag = `<f${rawAttrs}>`;
    // An array formula's range follows its copy of a repeated row, as the row's references do.
    if (a.get("t") === "array" && a.has("ref")) fTag = setAttr(fTag, "ref", moveFormula(a.get("ref")!, ctx));
    return `${fTag}${escapeXml(moveFormula(formula, ctx))}</f>`;
  });
  return `${tag}${inner}</c>`;
}

/** Whether position `at` of a sheet's tail is inside its mergeCells (moved copy by copy, not as ranges). */
function isInMerges(tail: string, at: number): boolean {
  const start = tail.indexOf("<mergeCells");
  return start >= 0 && at > start && at < tail.indexOf("</mergeCells>", start);
}

/** The parts of the sheet after its rows, with merged cells of repeated rows repeated and every range moved. */
function movedTail(tail: string, map: RowMap, loops: Map<number, number>, ctx: RefContext, addDrawing?: string): string {
  let out = tail.replace(/(\s(?:sqref|ref))="([^"]*)"/g, (whole, name: string, value: string, at: number) =>
    isInMerges(tail, at) ? whole : `${name}="${moveSqref(value, map)}"`,
  );
  out = out.replace(/<mergeCells\b[^>]*>([\s\S]*?)<\/mergeCells>/, (_, inner: string) => {
    const merges: string[] = [];
    for (const m of elements(inner, "mergeCell")) {
      const ref = attrs(m.tag).get("ref") ?? "";
      const [a, b] = ref.split(":").map((x) => parseCell(x));
      const copies = a && b && a.row === b.row ? loops.get(a.row) : undefined;
      if (copies !== undefined) {
        for (let i = 0; i < copies; i++) {
          const row = map.first(a!.row) + i;
          merges.push(`<mergeCell ref="${columnLetters(a!.col)}${row}:${columnLetters(b!.col)}${row}"/>`);
        }
      } else merges.push(`<mergeCell ref="${moveRange(ref, map)}"/>`);
    }
    return merges.length ? `<mergeCells count="${merges.length}">${merges.join("")}</mergeCells>` : "";
  });
  out = out.replace(/(<xm:sqref>)([^<]*)(<\/xm:sqref>)/g, (_, a: string, v: string, b: string) => `${a}${moveSqref(v, map)}${b}`);
  out = out.replace(/(<(formula|formula1|formula2|xm:f)>)([\s\S]*?)(<\/\2>)/g, (_, a: string, _n: string, v: string, b: string) => `${a}${escapeXml(moveFormula(unescapeXml(v), ctx))}${b}`);
  if (addDrawing) {
    // The schema's order: drawing comes before these, or last.
    const next = /<(legacyDrawing|legacyDrawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst)\b|<\/worksheet>/.exec(out);
    out = next ? `${out.slice(0, next.index)}${addDrawing}${out.slice(next.index)}` : `${out}${addDrawing}`;
  }
  return out;
}

/** A sheet written row by row: what a 10,000-row report streams into the zip without holding it whole. */
function* sheetPieces(sheet: Sheet, plan: SheetPlan | undefined, values: string[][][], map: RowMap, ctx: RefContext, addDrawing?: string): Generator<string> {
  const planByRow = new Map(plan?.rows.map((r, i) => [r.row, i]) ?? []);
  const loops = new Map<number, number>();
  plan?.rows.forEach((r, i) => {
    if (r.each) loops.set(r.row, values[i]!.length);
  });
  const shared = sharedFormulas(sheet);
  yield sheet.head.replace(/(<dimension\s+ref=")([^"]*)(")/, (_, a: string, v: string, b: string) => `${a}${moveSqref(v, map)}${b}`);
  for (const row of sheet.rows) {
    const index = planByRow.get(row.row);
    const p = index === undefined ? undefined : plan!.rows[index]!;
    const copies = index === undefined ? [undefined] : p!.each ? values[index]! : [values[index]![0] ?? []];
    const templateCells = new Map(p?.cells.map((c, j) => [c.col, j]) ?? []);
    for (let i = 0; i < copies.length; i++) {
      const outRow = map.first(row.row) + i;
      const rowCtx: RefContext = p?.each ? { ...ctx, copy: { row: row.row, index: i } } : ctx;
      let xml = setAttr(setAttr(row.tag, "r", String(outRow)), "spans", undefined);
      if (xml.endsWith("/>")) {
        yield xml;
        continue;
      }
      for (const cell of row.cells) {
        const ref = `${columnLetters(cell.col)}${outRow}`;
        const j = templateCells.get(cell.col);
        xml += j === undefined ? movedCell(cell, ref, row.row, shared, rowCtx) : valueCell(cell, ref, p!.cells[j]!.source, copies[i]?.[j]);
      }
      yield `${xml}</row>`;
    }
  }
  yield movedTail(sheet.tail, map, loops, ctx, addDrawing);
}

/** A drawing's anchors moved: an image or chart below a repeated row moves down with its rows. */
function movedDrawing(xml: string, map: RowMap): string {
  return xml.replace(/<(xdr:from|xdr:to)>([\s\S]*?)<\/\1>/g, (whole, name: string) =>
    whole.replace(/<xdr:row>(\d+)<\/xdr:row>/, (_, r: string) => {
      const row = Number(r) + 1;
      return `<xdr:row>${(name === "xdr:to" ? map.last(row) : map.first(row)) - 1}</xdr:row>`;
    }),
  );
}

/**
 * The filled workbook: `values` holds, by sheet part, what the sandbox returned for that sheet's
 * template rows (source.ts). Returns the new file's bytes in pieces, in order.
 */
export async function fillWorkbook(bytes: Uint8Array, plan: WorkbookPlan, values: Record<string, string>, images: Record<string, FillImage> = {}): Promise<Buffer[]> {
  const book = new Workbook(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const plans = new Map(plan.sheets.map((s) => [s.path, s]));
  const decoded = new Map<string, string[][][]>();
  const maps = new Map<string, RowMap>();
  const byName = new Map<string, RowMap>();
  for (const s of book.sheets) {
    const p = plans.get(s.path);
    const v = p ? decodeValues(p, values[s.path] ?? "") : [];
    decoded.set(s.path, v);
    const map = new RowMap(p ? p.rows.flatMap((r, i) => (r.each ? [{ row: r.row, copies: v[i]!.length }] : [])) : []);
    maps.set(s.path, map);
    byName.set(s.name.toLowerCase(), map);
  }
  const anyMoves = [...maps.values()].some((m) => m.moves);
  // Parts that belong to a sheet (tables, drawings), found through its relationships.
  const sheetOfPart = new Map<string, string>();
  for (const s of book.sheets) {
    const rels = book.text(relsPathOf(s.path));
    if (rels) for (const r of relationships(rels, folderOf(s.path)).values()) sheetOfPart.set(r.target, s.path);
  }
  const calcChain = [...relationships(book.text("xl/_rels/workbook.xml.rels")!, "xl/").values()].find((r) => CALC_CHAIN.test(r.type))?.target ?? "xl/calcChain.xml";
  const everywhere: RefContext = { own: undefined, sheets: byName };
  // Images: each sheet's {{sheetImage}} cells, the drawing each sheet has, and the parts that place them.
  const drawingOf = (sheetPath: string) => {
    const rels = book.text(relsPathOf(sheetPath));
    return rels ? [...relationships(rels, folderOf(sheetPath)).values()].find((r) => /\/drawing$/.test(r.type))?.target : undefined;
  };
  const readMoved = (name: string) => {
    const t = book.text(name);
    const map = maps.get(sheetOfPart.get(name) ?? "");
    return t !== undefined && map?.moves && /^xl\/drawings\/[^/]+\.xml$/.test(name) ? movedDrawing(t, map) : t;
  };
  const img = imageParts(
    book.sheets.map((s) => ({ path: s.path, placements: placements(plans.get(s.path), decoded.get(s.path)!, maps.get(s.path)!) })),
    images,
    readMoved,
    drawingOf,
  );
  const out = new ZipWriter();
  for (const e of book.entries) {
    const name = e.name;
    if (name === calcChain) continue;
    const replaced = img.parts.get(name);
    if (replaced !== undefined) {
      out.add(name, typeof replaced === "string" ? replaced : Buffer.from(replaced.buffer, replaced.byteOffset, replaced.byteLength));
      img.parts.delete(name);
    } else if (name === "[Content_Types].xml") {
      out.add(name, img.contentTypes(book.text(name)!.replace(new RegExp(`<Override[^>]*PartName="/${calcChain.replace(/[.]/g, "\\.")}"[^>]*/>`), "")));
    } else if (name === "xl/_rels/workbook.xml.rels") {
      out.add(name, book.text(name)!.replace(/<Relationship\b[^>]*\/calcChain"[^>]*\/>/, ""));
    } else if (name === "xl/workbook.xml") {
      let xml = book.text(name)!.replace(/(<definedName\b[^>]*>)([\s\S]*?)(<\/definedName>)/g, (_, a: string, v: string, b: string) => `${a}${escapeXml(moveFormula(unescapeXml(v), everywhere))}${b}`);
      // Excel recalculates every formula when it opens the file: no stale totals, no calcChain needed.
      if (/<calcPr\b/.test(xml)) xml = xml.replace(/<calcPr\b[^>]*?\/?>/, (tag) => setAttr(tag, "fullCalcOnLoad", "1"));
      else xml = xml.replace(/(<\/definedNames>|<\/sheets>)(?![\s\S]*(<\/definedNames>))/, `$1<calcPr fullCalcOnLoad="1"/>`);
      out.add(name, xml);
    } else if (maps.has(name) && (plans.get(name)?.rows.length || anyMoves)) {
      const map = maps.get(name)!;
      const sheet = parseSheet(book.text(name)!, book.sharedStrings);
      await out.addStream(name, sheetPieces(sheet, plans.get(name), decoded.get(name)!, map, { own: map, sheets: byName }, img.addDrawing.get(name)));
    } else if (anyMoves && /^xl\/tables\/[^/]+\.xml$/.test(name) && maps.get(sheetOfPart.get(name) ?? "")?.moves) {
      const map = maps.get(sheetOfPart.get(name)!)!;
      out.add(name, book.text(name)!.replace(/(<(?:table|autoFilter)\b[^>]*\sref=")([^"]*)(")/g, (_, a: string, v: string, b: string) => `${a}${moveRange(v, map)}${b}`));
    } else if (anyMoves && /^xl\/drawings\/[^/]+\.xml$/.test(name) && maps.get(sheetOfPart.get(name) ?? "")?.moves) {
      out.add(name, movedDrawing(book.text(name)!, maps.get(sheetOfPart.get(name)!)!));
    } else if (anyMoves && /^xl\/charts\/[^/]+\.xml$/.test(name)) {
      out.add(name, book.text(name)!.replace(/(<c:f>)([\s\S]*?)(<\/c:f>)/g, (_, a: string, v: string, b: string) => `${a}${escapeXml(moveFormula(unescapeXml(v), everywhere))}${b}`));
    } else if (/^xl\/pivotCache\/pivotCacheDefinition[^/]*\.xml$/.test(name)) {
      // The pivot table's cache holds the template's rows: Excel rebuilds it from the filled ones on open.
      let xml = book.text(name)!.replace(/<pivotCacheDefinition\b[^>]*>/, (tag) => setAttr(tag, "refreshOnLoad", "1"));
      xml = xml.replace(/<worksheetSource\b[^>]*\/?>/, (tag) => {
        const a = attrs(tag);
        const map = byName.get(unescapeXml(a.get("sheet") ?? "").toLowerCase());
        return map && a.has("ref") ? setAttr(tag, "ref", moveRange(a.get("ref")!, map)) : tag;
      });
      out.add(name, xml);
    } else out.addRaw(e);
  }
  // New parts: the images, and drawings and relationships the workbook did not have.
  for (const [name, data] of img.parts) out.add(name, typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return out.finish();
}

// --- Images placed by {{sheetImage id}} ---

/** An image a fill may place: the bytes of an image asset the template names (its version keeps them). */
export type FillImage = { bytes: Uint8Array; mediaType: string };

type Placement = { col: number; row: number; id: string };

/** Where each `{{sheetImage}}` of a sheet lands: its cell's column and output row. */
function placements(plan: SheetPlan | undefined, values: string[][][], map: RowMap): Placement[] {
  const out: Placement[] = [];
  plan?.rows.forEach((r, i) => {
    values[i]!.forEach((copy, k) => {
      r.cells.forEach((c, j) => {
        const m = IMAGE_MARK.exec(copy[j] ?? "");
        if (m) out.push({ col: c.col, row: map.first(r.row) + k, id: m[1]! });
      });
    });
  });
  return out;
}

/** A PNG's or JPEG's size in pixels (its header), or a square inch when it cannot be read. */
export function pixelSize(bytes: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let at = 2; at + 9 < b.length; ) {
      if (b[at] !== 0xff) break;
      const marker = b[at + 1]!;
      const length = b.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
      at += 2 + length;
    }
  }
  return { width: 96, height: 96 };
}

const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const IMAGE_REL = `${REL_NS}/image`;
const DRAWING_REL = `${REL_NS}/drawing`;
const EMU_PER_PIXEL = 9525;
/** The largest an image is drawn at, in pixels, keeping its proportions. */
const MAX_IMAGE_PX = 600;

/** A picture anchored at a cell, drawn at its own size (at most MAX_IMAGE_PX on its longer side). */
function pictureAnchor(p: Placement, rId: string, n: number, size: { width: number; height: number }): string {
  const scale = Math.min(1, MAX_IMAGE_PX / Math.max(size.width, size.height, 1));
  const cx = Math.round(size.width * scale * EMU_PER_PIXEL);
  const cy = Math.round(size.height * scale * EMU_PER_PIXEL);
  return (
    `<xdr:oneCellAnchor><xdr:from><xdr:col>${p.col - 1}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${p.row - 1}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="${cx}" cy="${cy}"/>` +
    `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${n}" name="Picture ${n}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
    `<xdr:blipFill><a:blip xmlns:r="${REL_NS}" r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
    `<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`
  );
}

/** A relationships part with these relationships added (a new part when `xml` is undefined). */
function withRelationships(xml: string | undefined, add: { id: string; type: string; target: string }[]): string {
  const base = xml ?? `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`;
  const rels = add.map((r) => `<Relationship Id="${r.id}" Type="${r.type}" Target="${escapeXml(r.target)}"/>`).join("");
  return base.replace(/<\/Relationships>\s*$/, `${rels}</Relationships>`);
}

/** A relationship id not used in `xml`: rIdFolio1, rIdFolio2, … */
function freeRelId(xml: string | undefined, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const id = `rIdFolio${n}`;
    if (!taken.has(id) && !(xml ?? "").includes(`Id="${id}"`)) {
      taken.add(id);
      return id;
    }
  }
}

/** The parts a fill changes or adds to place its images, by part name, and the sheets' new drawing elements. */
export type ImageParts = { parts: Map<string, string | Uint8Array>; addDrawing: Map<string, string>; contentTypes: (xml: string) => string };

/**
 * The parts that place each sheet's images: the images under xl/media, each sheet's drawing (its
 * own, with pictures added, or a new one with the sheet's relationship to it), the drawings'
 * relationships, and the content types of what is new. `drawingXml` reads a part as the fill
 * would write it (moved anchors included). Throws WorkbookError for an image the template does
 * not name.
 */
export function imageParts(
  sheets: { path: string; placements: Placement[] }[],
  images: Record<string, FillImage>,
  read: (name: string) => string | undefined,
  drawingOf: (sheetPath: string) => string | undefined,
): ImageParts {
  const parts = new Map<string, string | Uint8Array>();
  const addDrawing = new Map<string, string>();
  const overrides: string[] = [];
  const extensions = new Map<string, string>();
  const media = new Map<string, string>();
  let drawings = 0;
  let pictures = 1000;
  for (const s of sheets) {
    if (!s.placements.length) continue;
    let drawing = drawingOf(s.path);
    let drawingXml = drawing ? (parts.get(drawing) as string | undefined) ?? read(drawing) : undefined;
    if (!drawing || drawingXml === undefined) {
      do drawing = `xl/drawings/drawingFolio${++drawings}.xml`;
      while (read(drawing) !== undefined);
      drawingXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"></xdr:wsDr>`;
      overrides.push(`<Override PartName="/${drawing}" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>`);
      const sheetRels = relsPathOf(s.path);
      const current = (parts.get(sheetRels) as string | undefined) ?? read(sheetRels);
      const rId = freeRelId(current, new Set());
      parts.set(sheetRels, withRelationships(current, [{ id: rId, type: DRAWING_REL, target: `../drawings/${drawing.slice("xl/drawings/".length)}` }]));
      addDrawing.set(s.path, `<drawing r:id="${rId}"/>`);
    }
    const drawingRels = relsPathOf(drawing);
    let rels = (parts.get(drawingRels) as string | undefined) ?? read(drawingRels);
    const taken = new Set<string>();
    const anchors: string[] = [];
    const added: { id: string; type: string; target: string }[] = [];
    const relOfImage = new Map<string, string>();
    for (const p of s.placements) {
      const image = images[p.id];
      if (!image) throw new WorkbookError(`{{sheetImage}} names ${p.id}, which is not one of the template's images (name an image asset literally in a cell, or through an image content field)`);
      const ext = image.mediaType === "image/jpeg" ? "jpeg" : "png";
      let target = media.get(p.id);
      if (!target) {
        target = `xl/media/folio-${p.id}.${ext}`;
        media.set(p.id, target);
        parts.set(target, image.bytes);
        extensions.set(ext, image.mediaType);
      }
      let rId = relOfImage.get(p.id);
      if (!rId) {
        rId = freeRelId(rels, taken);
        relOfImage.set(p.id, rId);
        added.push({ id: rId, type: IMAGE_REL, target: `../media/${target.slice("xl/media/".length)}` });
      }
      anchors.push(pictureAnchor(p, rId, ++pictures, pixelSize(image.bytes)));
    }
    rels = withRelationships(rels, added);
    parts.set(drawingRels, rels);
    parts.set(drawing, drawingXml.replace(/<\/xdr:wsDr>\s*$/, `${anchors.join("")}</xdr:wsDr>`));
  }
  const contentTypes = (xml: string) => {
    let out = xml;
    for (const [ext, type] of extensions) if (!new RegExp(`<Default[^>]*Extension="${ext}"`, "i").test(out)) out = out.replace(/<Override\b|<\/Types>/, (m) => `<Default Extension="${ext}" ContentType="${type}"/>${m}`);
    return out.replace(/<\/Types>/, `${overrides.join("")}</Types>`);
  };
  return { parts, addDrawing, contentTypes };
}
