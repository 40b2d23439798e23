/**
 * A workbook template's placeholders as sandbox steps (lib/sandbox): one Handlebars source per
 * sheet that writes, for each template row, a row mark, its index in the plan and each placeholder
 * cell's value after a cell mark; a repeated row sits inside its `{{#each}}`, so it writes one such
 * record per item. Each cell's value passes through a helper of Folio's that leaves out the marks
 * and every character XML cannot hold, so a value can never shift another. Each cell starts a line
 * of the source, so an error's line names the cell (cellOfLine).
 */
import { CELL_MARK, ROW_MARK, type SheetPlan, type WorkbookPlan } from "./fill";

/** The helper each cell's value goes through (appended to helpers.js: a later declaration wins). */
export const CELL_HELPER = `\nfunction __folioCell(options) { return String(options.fn(this)).replace(/[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]/g, ""); } function sheetImage(id) { return "folio-image:" + String(id); }\n`;

export type SheetStep = { name: string; source: string; path: string; cells: string[] };

/** The step name of a sheet, as errors name it: `sheet Invoice`. */
export const stepName = (sheet: string) => `sheet ${sheet}`;

/** One sheet's step; `cells[line - 1]` is the cell a line of its source belongs to. */
export function sheetStep(sheet: SheetPlan): SheetStep {
  let source = "";
  const cells: string[] = [];
  const add = (text: string, ref: string) => {
    source += text;
    const lines = text.split("\n").length - 1;
    for (let i = 0; i < lines; i++) cells.push(ref);
  };
  sheet.rows.forEach((row, i) => {
    const first = row.cells[0]!.ref;
    // why "\n{{~": each opening starts a line (the ~ removes the line break from the output).
    add(row.each ? `\n{{~#each ${row.each}}}${ROW_MARK}${i}` : `\n{{~! row }}${ROW_MARK}${i}`, first);
    for (const cell of row.cells) add(`${CELL_MARK}\n{{~#__folioCell}}${cell.source}{{/__folioCell}}`, cell.ref);
    if (row.each) add(`\n{{~/each}}`, row.cells[row.cells.length - 1]!.ref);
  });
  // Line 1 is the empty line before the first row.
  return { name: stepName(sheet.name), source, path: sheet.path, cells: [sheet.rows[0]?.cells[0]?.ref ?? "A1", ...cells] };
}

/** The steps of every sheet that has placeholders. */
export function workbookSteps(plan: WorkbookPlan): SheetStep[] {
  return plan.sheets.filter((s) => s.rows.length > 0).map(sheetStep);
}

/**
 * A syntax error's text with the step's line made the cell, and Folio's wrapper out of it:
 * "if doesn't match __folioCell - 13:20" → "cell B12: {{#if}} is not closed in the cell";
 * "Parse error on line 13: …" → "cell B12: Parse error: …" (the excerpt, which shows the wrapper,
 * left out). Errors of running code keep their text: they name helpers.js or the script.
 */
function inCell(text: string, step: SheetStep): { text: string; cell?: string } {
  const cellOf = (n: string) => step.cells[Number(n) - 1];
  const unclosed = /^(\w+) doesn't match __folioCell - (\d+):\d+$/.exec(text);
  if (unclosed && cellOf(unclosed[2]!)) return { text: `{{#${unclosed[1]}}} is not closed in the cell`, cell: cellOf(unclosed[2]!) };
  const parse = /^Parse error on line (\d+):\n[^\n]*\n[^\n]*\n([\s\S]*)$/.exec(text);
  if (parse && cellOf(parse[1]!)) return { text: `Parse error: ${parse[2]}`, cell: cellOf(parse[1]!) };
  const other = /^([\s\S]*?) - (\d+):\d+$/.exec(text);
  if (other && cellOf(other[2]!)) return { text: other[1]!.replace(/__folioCell/g, "the cell"), cell: cellOf(other[2]!) };
  return { text };
}

/** An error of the sheets' steps as a person reads it: "sheet Invoice, cell B12: …" (message and details). */
export function cellsInError(e: { message: string; details?: readonly { path?: string; message: string }[] }, steps: SheetStep[], helpers: string | undefined): void {
  // why: an error thrown inside a cell's block is first seen in Folio's helper, the last lines of helpers.js.
  const own = ` (helpers.js line ${(helpers ?? "").split("\n").length + 1})`;
  if (e.message.endsWith(own)) e.message = e.message.slice(0, -own.length);
  for (const d of e.details ?? []) if (d.message.endsWith(own)) Object.assign(d, { message: d.message.slice(0, -own.length) });
  for (const s of steps) {
    if (e.message.startsWith(`${s.name}: `)) {
      const r = inCell(e.message.slice(s.name.length + 2), s);
      if (r.cell) e.message = `${s.name}, cell ${r.cell}: ${r.text}`;
    }
    for (const d of e.details ?? []) {
      if (d.path !== s.name) continue;
      const r = inCell(d.message, s);
      if (r.cell) Object.assign(d, { path: `${s.name}!${r.cell}`, message: r.text });
    }
  }
}
