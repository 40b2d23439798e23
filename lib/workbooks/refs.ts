/**
 * Cell references of a workbook and how they move when a template row repeats (docs/api.md,
 * "Workbook templates"): rows below a repeated row move down by the rows it added, a range that
 * ends on it grows to its last copy, and inside a copy the row's references to itself follow the
 * copy. Pure functions over strings: used by the fill in the helper processes and by its tests.
 */

/** Column letters to its number: A is 1, XFD is 16384. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A column's letters from its number. */
export function columnLetters(n: number): string {
  let s = "";
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** "B7" to its column and row; undefined when it is not one cell's reference. */
export function parseCell(ref: string): { col: number; row: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref);
  return m ? { col: columnNumber(m[1]!), row: Number(m[2]) } : undefined;
}

/**
 * Where the rows of one sheet went: each repeated template row with its copies. `first(r)` is the
 * output row of template row r (its first copy), `last(r)` its last copy (r itself when it does
 * not repeat; the row before first(r) when it repeated zero times).
 */
export class RowMap {
  /** Template rows that repeat, ascending, with their copies. */
  private readonly loops: { row: number; copies: number }[];

  constructor(loops: { row: number; copies: number }[]) {
    this.loops = [...loops].sort((a, b) => a.row - b.row);
  }

  get moves(): boolean {
    return this.loops.some((l) => l.copies !== 1);
  }

  first(row: number): number {
    let out = row;
    for (const l of this.loops) if (l.row < row) out += l.copies - 1;
    return out;
  }

  last(row: number): number {
    const loop = this.loops.find((l) => l.row === row);
    return this.first(row) + (loop ? loop.copies - 1 : 0);
  }
}

/** Where a reference is read: its sheet's map, and the copy of a repeated row it sits in, if any. */
export type RefContext = {
  /** The map of the sheet a reference without a sheet name points at. */
  own: RowMap | undefined;
  /** Maps of the sheets by name in lower case (Excel's sheet names ignore case), for references such as 'Q1 data'!B4. */
  sheets: Map<string, RowMap>;
  /** Inside copy `index` of repeated template row `row`: its references to that row follow the copy. */
  copy?: { row: number; index: number };
};

const CELL = String.raw`(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})`;
const SHEET = String.raw`(?:('(?:[^']|'')+'|[A-Za-z_\u00C0-\uFFFF][\w.\u00C0-\uFFFF]*)!)?`;
/**
 * A reference in a formula: an optional sheet, a cell, an optional second cell of a range. Not
 * after a letter, digit, dot or underscore (a name such as Tax2024x, a function such as LOG10) and
 * not before "(" (LOG10( is a function) or another name character.
 */
const REF = new RegExp(String.raw`(?<![\w.$:\]!])${SHEET}${CELL}(?::${CELL})?(?![\w(!])`, "g");

/**
 * A formula in parts that hold references (even indexes) and parts that do not (odd): string
 * literals ("a""b"), structured references (Table1[[#This Row],[Q3]], whose column names may look
 * like cells) and external references ([1]Sheet1!A5, another workbook's cells) are left as they are.
 */
function splitFormula(text: string): string[] {
  const parts: string[] = [];
  let plain = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch !== '"' && ch !== "[") {
      plain += ch;
      i++;
      continue;
    }
    let j = i + 1;
    if (ch === '"') {
      while (j < text.length && !(text[j] === '"' && text[j + 1] !== '"')) j += text[j] === '"' ? 2 : 1;
      j++;
    } else {
      for (let depth = 1; j < text.length && depth > 0; j++) depth += text[j] === "[" ? 1 : text[j] === "]" ? -1 : 0;
      // An external reference: the other workbook's sheet and cells follow its index.
      const external = /^(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?/.exec(text.slice(j));
      if (external) j += external[0].length;
    }
    parts.push(plain, text.slice(i, j));
    plain = "";
    i = j;
  }
  parts.push(plain);
  return parts;
}

function sheetName(quoted: string | undefined): string | undefined {
  if (quoted === undefined) return undefined;
  return quoted.startsWith("'") ? quoted.slice(1, -1).replace(/''/g, "'") : quoted;
}

/**
 * A formula (or a chart's or defined name's reference) with its row references moved. Text in
 * double quotes is left as it is; references to sheets that did not move, or to no sheet Folio
 * knows, stay as they are.
 */
export function moveFormula(formula: string, ctx: RefContext): string {
  // Split out string literals ("" is a quote inside one).
  return splitFormula(formula)
    .map((part, i) => (i % 2 === 1 ? part : moveRefs(part, ctx)))
    .join("");
}

function moveRefs(text: string, ctx: RefContext): string {
  return text.replace(REF, (whole, sheet: string | undefined, ca1: string, c1: string, ra1: string, r1: string, ca2?: string, c2?: string, ra2?: string, r2?: string) => {
    const name = sheetName(sheet);
    const map = name === undefined ? ctx.own : ctx.sheets.get(name.toLowerCase());
    if (!map) return whole;
    const copy = name === undefined ? ctx.copy : undefined;
    const row1 = Number(r1);
    const prefix = sheet ? `${sheet}!` : "";
    const moveOne = (row: number, absolute: string, end: boolean) => {
      if (copy && !absolute && row === copy.row) return map.first(row) + copy.index;
      return end ? map.last(row) : map.first(row);
    };
    if (c2 === undefined) return `${prefix}${ca1}${c1}${ra1}${moveOne(row1, ra1, false)}`;
    const row2 = Number(r2);
    return `${prefix}${ca1}${c1}${ra1}${moveOne(row1, ra1, false)}:${ca2}${c2}${ra2}${moveOne(row2, ra2!, true)}`;
  });
}

/** A range "A4:C5" or a cell "B2" moved: its start to the first copy, its end to the last. */
export function moveRange(range: string, map: RowMap): string {
  const [a, b] = range.split(":");
  const start = parseCell(a ?? "");
  if (!start) return range;
  const end = b === undefined ? undefined : parseCell(b);
  const startText = a!.replace(/\d+$/, String(map.first(start.row)));
  if (b === undefined || !end) return startText;
  return `${startText}:${b.replace(/\d+$/, String(map.last(end.row)))}`;
}

/** A space-separated list of ranges (sqref) moved. */
export function moveSqref(sqref: string, map: RowMap): string {
  return sqref
    .split(/\s+/)
    .filter(Boolean)
    .map((r) => moveRange(r, map))
    .join(" ");
}

/**
 * A shared formula's text as written in another cell: its relative references moved by the cell's
 * distance from the formula's first cell (absolute parts, with $, stay).
 */
export function translateFormula(formula: string, rows: number, cols: number): string {
  if (rows === 0 && cols === 0) return formula;
  return splitFormula(formula)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(REF, (whole, sheet: string | undefined, ca1: string, c1: string, ra1: string, r1: string, ca2?: string, c2?: string, ra2?: string, r2?: string) => {
            const one = (ca: string, c: string, ra: string, r: string) =>
              `${ca}${ca ? c : columnLetters(columnNumber(c) + cols)}${ra}${ra ? r : Number(r) + rows}`;
            const prefix = sheet ? `${sheet}!` : "";
            return c2 === undefined ? `${prefix}${one(ca1, c1, ra1, r1)}` : `${prefix}${one(ca1, c1, ra1, r1)}:${one(ca2!, c2, ra2!, r2!)}`;
          }),
    )
    .join("");
}
