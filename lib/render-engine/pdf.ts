import { spawn } from "node:child_process";
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { ppmToPng } from "./png";

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

export type Metadata = { title?: string; author?: string; subject?: string; keywords?: string };

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
  return doc.save();
}

/**
 * Rasterises one page of a PDF (from 1) with poppler's pdftoppm to exactly width x height pixels.
 * why exact: Chromium's page boxes are a fraction of a point larger than asked, which a DPI would
 * turn into an extra pixel or more, past the checked limits.
 */
export function rasterize(pdf: Uint8Array, format: "png" | "jpeg", size: { width: number; height: number }, signal: AbortSignal, page = 1): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // PDF on stdin ("-"), and no output root, so the image comes back on stdout.
    // PNG: pdftoppm writes a PPM (its default), which ppmToPng encodes (see there why).
    const args = ["-scale-to-x", String(size.width), "-scale-to-y", String(size.height), "-singlefile", "-f", String(page), "-l", String(page)];
    if (format === "jpeg") args.unshift("-jpeg", "-jpegopt", "quality=90");
    args.push("-");
    const child = spawn("pdftoppm", args, { stdio: ["pipe", "pipe", "pipe"], signal });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const image = Buffer.concat(out);
      if (code === 0 && image.length > 0) resolve(format === "png" ? ppmToPng(image) : image);
      else reject(new Error(`pdftoppm exited ${code} with ${image.length} bytes: ${err.slice(0, 500)}`));
    });
    child.stdin.on("error", () => {}); // pdftoppm may exit before reading everything
    child.stdin.end(pdf);
  });
}
