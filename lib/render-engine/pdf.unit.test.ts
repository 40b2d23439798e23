import { PDFDocument, PDFName, PDFString, type PDFDict } from "pdf-lib";
import { describe, expect, it } from "vitest";
import pkg from "../../package.json";
import { pdfInfo } from "../testing/pdf";
import { PDF_CREATOR, PDF_PRODUCER, stampInfo } from "./pdf";

/** A PDF whose Info dictionary is uncompressed with literal strings, as Chromium writes it for ASCII values. */
async function pdfWith(info: { title?: string; creator: string; producer: string }) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 100]);
  // why the cast: pdf-lib's setters write hex strings; Chromium writes literals, which these tests need.
  const dict = (doc as unknown as { getInfoDict(): PDFDict }).getInfoDict();
  if (info.title !== undefined) dict.set(PDFName.of("Title"), PDFString.of(info.title.replace(/[()\\]/g, "\\$&")));
  dict.set(PDFName.of("Creator"), PDFString.of(info.creator));
  dict.set(PDFName.of("Producer"), PDFString.of(info.producer));
  return doc.save({ useObjectStreams: false });
}

describe("stampInfo: Creator and Producer name Folio", () => {
  it("writes them in place, so the file keeps its length and stays valid", async () => {
    const pdf = await pdfWith({ title: "Invoice (draft) /Creator (x)", creator: "Chromium", producer: "Skia/PDF m156" });
    const length = pdf.byteLength;
    expect(stampInfo(pdf, "about:blank")).toBe(true);
    const out = pdf;
    expect(out.byteLength).toBe(length);
    expect(PDF_PRODUCER).toBe(`Folio ${pkg.version}`);
    const info = pdfInfo(out);
    expect(info).toMatchObject({ Creator: PDF_CREATOR, Producer: PDF_PRODUCER, Title: "Invoice (draft) /Creator (x)" });
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    expect([doc.getCreator(), doc.getProducer(), doc.getPageCount()]).toEqual(["Folio", PDF_PRODUCER, 1]);
  });

  it("blanks the title Chromium made from the page's URL, and reads nested parentheses", async () => {
    const pdf = await pdfWith({ title: "about:blank", creator: "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156", producer: "pdf-lib (https://github.com/Hopding/pdf-lib)" });
    expect(stampInfo(pdf, "about:blank")).toBe(true);
    const info = pdfInfo(pdf);
    expect(info).toMatchObject({ Creator: "Folio", Producer: PDF_PRODUCER });
    expect(info.Title ?? "").toBe("");
  });

  it("shortens the Producer to Folio when the version does not fit, and gives up (pdf-lib's turn) when nothing fits", async () => {
    const short = await pdfWith({ creator: "Chromium", producer: "Skia/PDF" });
    expect(stampInfo(short, "about:blank")).toBe(true);
    expect(pdfInfo(short)).toMatchObject({ Creator: "Folio", Producer: "Folio" });
    const tiny = await pdfWith({ creator: "C", producer: "Skia/PDF m156" });
    const before = Buffer.from(tiny);
    expect(stampInfo(tiny, "about:blank")).toBe(false);
    expect(Buffer.from(tiny).equals(before)).toBe(true); // nothing changed
    expect(stampInfo(new TextEncoder().encode("%PDF-1.4\nnot a pdf"), "about:blank")).toBe(false);
  });
});
