import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";
import pkg from "../../package.json";

/**
 * Pages of a PDF as Chromium writes it: one `/Type /Page` dictionary per page (the page tree
 * nodes are `/Type /Pages`). Scanning the bytes costs a few ms even for a large file, where a
 * full parse would cost far more.
 */
export function countPdfPages(pdf: Uint8Array): number {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1");
  const matches = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g);
  return matches?.length ?? 0;
}

/**
 * Chromium titles a document without a <title> after its URL, here about:blank.
 * Blanks that title in place (same length, so the cross-reference offsets stay right).
 */
export function blankUrlTitle(pdf: Uint8Array, host: string): Uint8Array {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const needle = Buffer.from(`/Title (${host})`, "latin1");
  const at = buf.indexOf(needle);
  if (at < 0 || buf.indexOf(needle, at + 1) >= 0) return pdf;
  const out = Buffer.from(buf);
  out.write(`/Title ()${" ".repeat(host.length)}`, at, "latin1");
  return out;
}

/** What a PDF's Creator and Producer say: Folio, not Chromium and Skia (docs/api.md, "Document metadata"). */
export const PDF_CREATOR = "Folio";
export const PDF_PRODUCER = `Folio ${pkg.version}`;

/**
 * Writes Creator and Producer into the document information dictionary Chromium wrote, in place:
 * each value becomes a literal string padded with spaces to the old value's length, so no byte
 * moves and the cross-reference table stays right (no parse, no rewrite: a few microseconds).
 * A Producer that would not fit is shortened to PDF_CREATOR. The title Chromium made from the
 * page's URL (`blankTitleOf`) is blanked on the way. Changes `pdf` itself (the caller owns the
 * printed bytes; a copy would cost more than the rest). Returns false, having changed nothing,
 * when the dictionary is not where and as expected (another PDF writer): pdf-lib's turn.
 */
export function stampInfo(pdf: Uint8Array, blankTitleOf: string): boolean {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const tail = buf.toString("latin1", Math.max(0, buf.length - 2048));
  const ref = [...tail.matchAll(/\/Info\s+(\d+)\s+0\s+R/g)].at(-1)?.[1];
  if (!ref) return false;
  const start = objectStart(buf, ref);
  const end = start < 0 ? -1 : buf.indexOf("endobj", start, "latin1");
  if (end < 0) return false;
  const values = dictStrings(buf.toString("latin1", start, end));
  const creator = values.get("Creator");
  const producer = values.get("Producer");
  if (!creator || !producer || creator.length < PDF_CREATOR.length + 2 || producer.length < PDF_CREATOR.length + 2) return false;
  const write = (v: { at: number; length: number }, text: string) => buf.write(`(${text})`.padEnd(v.length, " "), start + v.at, "latin1");
  write(creator, PDF_CREATOR);
  write(producer, producer.length >= PDF_PRODUCER.length + 2 ? PDF_PRODUCER : PDF_CREATOR);
  const title = values.get("Title");
  if (title && title.text === `(${blankTitleOf})`) write(title, "");
  return true;
}

/** Where object `n 0 obj` begins (at a line start), or -1. */
function objectStart(buf: Buffer, n: string): number {
  const needle = Buffer.from(`${n} 0 obj`, "latin1");
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) {
    if (at === 0 || buf[at - 1] === 0x0a || buf[at - 1] === 0x0d) return at;
  }
  return -1;
}

/**
 * The string values of a dictionary's top-level keys (from the text of its object), each with
 * where it starts and its length, delimiters included. Read key by key, so a value's own text
 * (a title that spells "/Creator (x)") is never taken for a key.
 */
function dictStrings(obj: string): Map<string, { at: number; length: number; text: string }> {
  const out = new Map<string, { at: number; length: number; text: string }>();
  let i = obj.indexOf("<<");
  if (i < 0) return out;
  i += 2;
  const space = /[\s]/;
  for (;;) {
    while (i < obj.length && space.test(obj[i]!)) i++;
    if (i >= obj.length || obj.startsWith(">>", i) || obj[i] !== "/") return out;
    const key = /^\/([^\s/<>()[\]{}%]*)/.exec(obj.slice(i, i + 200))![1]!;
    i += key.length + 1;
    while (i < obj.length && space.test(obj[i]!)) i++;
    const at = i;
    if (obj[i] === "(") {
      let depth = 0;
      for (; i < obj.length; i++) {
        const c = obj[i];
        if (c === "\\") i++;
        else if (c === "(") depth++;
        else if (c === ")" && --depth === 0) break;
      }
      if (i >= obj.length) return out;
      i++;
    } else if (obj[i] === "<" && obj[i + 1] !== "<") {
      i = obj.indexOf(">", i);
      if (i < 0) return out;
      i++;
    } else {
      // Another kind of value (a name, number, reference, array or dictionary): an Info
      // dictionary has none that matter here; stop rather than misread it.
      return out;
    }
    out.set(key, { at, length: i - at, text: obj.slice(at, i) });
  }
}

export type Metadata = { title?: string; author?: string; subject?: string; keywords?: string; creator?: string; producer?: string };

/**
 * Stamps the diagonal TEST watermark on every page and writes document metadata. Done on the PDF
 * itself, so nothing in the caller's HTML or CSS can hide the watermark.
 */
export async function postProcessPdf(pdf: Uint8Array, opts: { watermark: boolean; metadata: Metadata }): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  if (opts.watermark) {
    const font = await doc.embedFont(StandardFonts.HelveticaBold);
    for (const page of doc.getPages()) {
      const { width, height } = page.getSize();
      const size = Math.min(width, height) / 3.2;
      const textWidth = font.widthOfTextAtSize("TEST", size);
      // Centre the text on the page, rotated 45 degrees about its start point.
      const angle = Math.PI / 4;
      const x = width / 2 - (Math.cos(angle) * textWidth) / 2 + (Math.sin(angle) * size * 0.35);
      const y = height / 2 - (Math.sin(angle) * textWidth) / 2 - (Math.cos(angle) * size * 0.35);
      page.drawText("TEST", { x, y, size, font, rotate: degrees(45), color: rgb(0.85, 0.1, 0.1), opacity: 0.22 });
    }
  }
  const m = opts.metadata;
  if (m.title !== undefined) doc.setTitle(m.title);
  if (m.author !== undefined) doc.setAuthor(m.author);
  if (m.subject !== undefined) doc.setSubject(m.subject);
  if (m.keywords !== undefined) doc.setKeywords(m.keywords.split(",").map((k) => k.trim()).filter(Boolean));
  if (m.creator !== undefined) doc.setCreator(m.creator);
  if (m.producer !== undefined) doc.setProducer(m.producer);
  return doc.save();
}
