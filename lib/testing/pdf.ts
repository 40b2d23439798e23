import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

function withFile<T>(bytes: Uint8Array, fn: (file: string) => T): T {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "folio-pdf-")), "doc.pdf");
  fs.writeFileSync(file, bytes);
  try {
    return fn(file);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/**
 * The text poppler extracts from a PDF, or from one page of it (from 1): laid out as on the page,
 * or with `raw` in the order it was drawn (a line mixing fonts of different heights, such as Latin
 * and CJK, is then not split by poppler's layout guess).
 */
export function pdfText(bytes: Uint8Array, page?: number, opts: { raw?: boolean } = {}): string {
  return withFile(bytes, (f) =>
    execFileSync("pdftotext", [opts.raw ? "-raw" : "-layout", ...(page ? ["-f", String(page), "-l", String(page)] : []), f, "-"], { encoding: "utf8" }),
  );
}

/**
 * One page's text in content-stream order (pdftotext -raw), whitespace removed: the rotated TEST
 * watermark stays one word, where the layout mode may reorder its letters ("STTE").
 */
export function rawText(bytes: Uint8Array, page: number): string {
  return pdfText(bytes, page, { raw: true }).replace(/\s+/g, "");
}

/** pdfinfo's fields: Pages, Title, Author, Subject, Keywords, "Page size", ... */
export function pdfInfo(bytes: Uint8Array): Record<string, string> {
  const out = withFile(bytes, (f) => execFileSync("pdfinfo", [f], { encoding: "utf8" }));
  return Object.fromEntries(out.split("\n").filter((l) => l.includes(":")).map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]));
}

/** The images drawn in a PDF (poppler's pdfimages), each with its size in pixels; soft masks are left out. */
export function pdfImages(bytes: Uint8Array): { page: number; width: number; height: number }[] {
  const out = withFile(bytes, (f) => execFileSync("pdfimages", ["-list", f], { encoding: "utf8" }));
  return out
    .split("\n")
    .slice(2)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c[2] === "image")
    .map((c) => ({ page: Number(c[0]), width: Number(c[3]), height: Number(c[4]) }));
}

/** The names of the fonts a PDF embeds or uses (poppler's pdffonts), such as "AAAAAA+DejaVuSansMono". */
export function pdfFonts(bytes: Uint8Array): string[] {
  const out = withFile(bytes, (f) => execFileSync("pdffonts", [f], { encoding: "utf8" }));
  return out
    .split("\n")
    .slice(2)
    .map((l) => l.trim().split(/\s+/)[0] ?? "")
    .filter(Boolean);
}

/** Width and height of a PNG or JPEG, read from its header. */
export function imageSize(bytes: Uint8Array): { type: "png" | "jpeg"; width: number; height: number } {
  const b = Buffer.from(bytes);
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { type: "png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i < b.length) {
      if (b[i] !== 0xff) throw new Error("bad JPEG marker");
      const marker = b[i + 1]!;
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xc3) return { type: "jpeg", height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      i += 2 + len;
    }
  }
  throw new Error("not a PNG or JPEG");
}
