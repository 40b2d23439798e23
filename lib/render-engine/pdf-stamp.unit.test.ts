import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument, PDFName, PDFString, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { printedPageNumbers } from "./margins";
import { PdfShapeError, stampPages, stampWithPdfLib } from "./pdf-stamp";

/** A PDF of the given page texts, written with a classic cross-reference table (as Chromium writes them). */
async function pdfOf(texts: string[], opts: { size?: [number, number]; objectStreams?: boolean; note?: string; y?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) {
    const page = doc.addPage(opts.size ?? [300, 400]);
    page.drawText(text, { x: 20, y: opts.y ?? 300, size: 12, font });
    if (opts.note) page.node.set(PDFName.of("FolioNote"), PDFString.of(opts.note));
  }
  return doc.save({ useObjectStreams: opts.objectStreams ?? false });
}

/** poppler's text of one page (from 1). */
function text(pdf: Uint8Array, page: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-stamp-"));
  try {
    fs.writeFileSync(path.join(dir, "a.pdf"), pdf);
    return execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path.join(dir, "a.pdf"), "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("stampPages", () => {
  it("draws overlay page i over body page i, as an update appended to the body", async () => {
    const body = await pdfOf(["body one", "body two", "body three"]);
    const overlay = await pdfOf(["over 1", "over 2", "over 3"], { y: 50 });
    const out = stampPages(body, overlay);
    // The body's bytes are untouched: the update only appends.
    expect(Buffer.from(out.subarray(0, body.length)).equals(Buffer.from(body))).toBe(true);
    for (const [i, word] of ["one", "two", "three"].entries()) {
      const t = text(out, i + 1);
      expect(t).toContain(`body ${word}`);
      expect(t).toContain(`over ${i + 1}`);
      expect(t).not.toContain(`over ${i + 2}`);
    }
    // Other readers agree: pdf-lib reads the update and finds the same three pages.
    const again = await PDFDocument.load(out);
    expect(again.getPageCount()).toBe(3);
  });

  it("stamps chosen body pages only", async () => {
    const body = await pdfOf(["body one", "body two", "body three"]);
    const overlay = await pdfOf(["over for two"], { y: 50 });
    const out = stampPages(body, overlay, [1]);
    expect(text(out, 1)).not.toContain("over");
    expect(text(out, 2)).toContain("over for two");
    expect(text(out, 3)).not.toContain("over");
  });

  it("draws the overlay as a pagination artifact after the page's own content, which it keeps in q/Q", async () => {
    const out = stampPages(await pdfOf(["a"]), await pdfOf(["b"]));
    const update = Buffer.from(out).toString("latin1");
    expect(update).toMatch(/\/Artifact <<\/Type \/Pagination>> BDC\nq\n\/FolioMargins Do\nQ\nEMC/);
    expect(update).toMatch(/\/Contents \[\d+ 0 R \d+ 0 R \d+ 0 R\]/);
  });

  it("leaves strings that look like references alone", async () => {
    const out = stampPages(await pdfOf(["a", "b"], { note: "5 0 R (kept)" }), await pdfOf(["x", "y"], { note: "7 0 R" }));
    const doc = await PDFDocument.load(out);
    for (const page of doc.getPages()) expect((page.node.get(PDFName.of("FolioNote")) as PDFString).decodeText()).toBe("5 0 R (kept)");
  });

  it("refuses what it does not read: other page counts, other sizes, cross-reference streams", async () => {
    const body = await pdfOf(["a", "b"]);
    expect(() => stampPages(body, body.subarray(0, 10))).toThrow(PdfShapeError);
    await expect(pdfOf(["x"]).then((o) => stampPages(body, o))).rejects.toThrow(PdfShapeError);
    await expect(pdfOf(["x", "y"], { size: [300, 500] }).then((o) => stampPages(body, o))).rejects.toThrow(/MediaBox|overlay page/);
    await expect(pdfOf(["x", "y"], { objectStreams: true }).then((o) => stampPages(body, o))).rejects.toThrow(PdfShapeError);
  });

  it("pdf-lib does the same for any PDF, at a higher cost", async () => {
    const body = await pdfOf(["body one", "body two"], { objectStreams: true });
    const out = await stampWithPdfLib(body, await pdfOf(["over 1", "over 2"], { objectStreams: true, y: 50 }));
    expect(text(out, 1)).toContain("over 1");
    expect(text(out, 2)).toContain("body two");
    expect(text(out, 2)).toContain("over 2");
  });
});

describe("printedPageNumbers", () => {
  it("numbers every page without pageRanges", () => {
    expect(printedPageNumbers(undefined, 3)).toEqual([1, 2, 3]);
  });

  it("numbers the selected pages in document order, each once, as Chromium prints them", () => {
    expect(printedPageNumbers("2", 1)).toEqual([2]);
    expect(printedPageNumbers("3,1", 2)).toEqual([1, 3]);
    expect(printedPageNumbers("1-3, 2-4, 9", 5)).toEqual([1, 2, 3, 4, 9]);
  });

  it("drops the selected pages past the document's end (the print holds fewer)", () => {
    expect(printedPageNumbers("2-10", 2)).toEqual([2, 3]);
    expect(printedPageNumbers("1, 5, 8", 1)).toEqual([1]);
    expect(printedPageNumbers("1-1000000000", 3)).toEqual([1, 2, 3]);
  });
});
