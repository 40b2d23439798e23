import zlib from "node:zlib";

/**
 * Whether a file's bytes are what its media type says (spec: Asset, "a file whose contents do not
 * match its mediaType answers ASSET_INVALID when a render uses it"). Pure and cheap: signatures
 * and container structure (chunk and table bounds, PNG checksums), never a full decode. What the
 * structure cannot show (a damaged font table, undecodable pixels) is caught later, by parsing the
 * font (lib/render-engine/assets.ts) and by the page itself (render.ts).
 */

/** What a page does with a file of this media type, or undefined for types a page never loads (workbooks). */
export type AssetClass = "image" | "font" | "stylesheet";

const classes: Record<string, AssetClass> = {
  "image/png": "image",
  "image/jpeg": "image",
  "image/svg+xml": "image",
  "font/woff2": "font",
  "font/woff": "font",
  "font/ttf": "font",
  "font/otf": "font",
  "text/css": "stylesheet",
};

export function assetClass(mediaType: string): AssetClass | undefined {
  return classes[mediaType];
}

/** A file format recognised from its first bytes, named as a person would. */
type Format = "PNG image" | "JPEG image" | "GIF image" | "WebP image" | "WOFF2 font" | "WOFF font" | "TrueType font" | "OpenType font" | "font collection" | "PDF document" | "ZIP archive";

function formatOf(b: Uint8Array): Format | undefined {
  const ascii = (at: number, s: string) => b.length >= at + s.length && [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
  if (b.length >= 8 && b[0] === 0x89 && ascii(1, "PNG\r\n\x1a\n")) return "PNG image";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "JPEG image";
  if (ascii(0, "GIF8")) return "GIF image";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "WebP image";
  if (ascii(0, "wOF2")) return "WOFF2 font";
  if (ascii(0, "wOFF")) return "WOFF font";
  if ((b.length >= 4 && b[0] === 0 && b[1] === 1 && b[2] === 0 && b[3] === 0) || ascii(0, "true")) return "TrueType font";
  if (ascii(0, "OTTO")) return "OpenType font";
  if (ascii(0, "ttcf")) return "font collection";
  if (ascii(0, "%PDF-")) return "PDF document";
  if (ascii(0, "PK\x03\x04")) return "ZIP archive";
  return undefined;
}

/** What the bytes look like, for a message: "holds a JPEG image", "is empty". */
function holds(b: Uint8Array): string {
  if (b.length === 0) return "is empty";
  const f = formatOf(b);
  if (f) return `holds a${/^[AEIOU]/.test(f) ? "n" : ""} ${f}`;
  return "holds something else";
}

/**
 * The problem with a file's bytes for its declared media type, as the end of a sentence naming the
 * file ("is declared as image/png but holds a JPEG image"); undefined when they match, and for media
 * types a page never loads.
 */
export function sniff(bytes: Uint8Array, mediaType: string): string | undefined {
  const b = bytes;
  const f = formatOf(b);
  const mismatch = () => `is declared as ${mediaType} but ${holds(b)}`;
  switch (mediaType) {
    case "image/png":
      return f === "PNG image" ? pngProblem(b) : mismatch();
    case "image/jpeg":
      return f === "JPEG image" ? jpegProblem(b) : mismatch();
    case "image/svg+xml":
      return f ? mismatch() : svgProblem(b);
    case "font/woff2":
      return f === "WOFF2 font" ? woff2Problem(b) : mismatch();
    case "font/woff":
      return f === "WOFF font" ? woffProblem(b) : mismatch();
    // why both sfnt flavours for both types: .ttf and .otf names (and so the media types uploads
    // get) are used for either outline format, and browsers load both alike.
    case "font/ttf":
    case "font/otf":
      return f === "TrueType font" || f === "OpenType font" ? sfntProblem(b) : mismatch();
    case "text/css":
      if (f) return mismatch();
      return utf8(b) === undefined ? "is not valid UTF-8 text" : undefined;
    default:
      return undefined;
  }
}

const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;

/** Decompressed pixel data up to this size is checked (a 4,000 x 2,000 RGBA image). */
const MAX_CHECKED_PIXEL_BYTES = 32 * 1024 * 1024;
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * PNG: chunks in bounds with their checksums, IHDR first with a size, image data that
 * decompresses to the rows the header promises, IEND. (Browsers draw undecodable pixel data as
 * an empty image of the right size, which nothing in the page can tell apart from a real one.)
 */
function pngProblem(b: Uint8Array): string | undefined {
  let at = 8;
  let chunks = 0;
  const data: Uint8Array[] = [];
  let header: { width: number; height: number; depth: number; colour: number; interlaced: boolean } | undefined;
  while (at + 12 <= b.length) {
    const length = u32(b, at);
    const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    if (length > b.length - at - 12) return `is damaged: its PNG chunk ${JSON.stringify(type)} runs past the end of the file`;
    if (zlib.crc32(b.subarray(at + 4, at + 8 + length)) !== u32(b, at + 8 + length)) return `is damaged: its PNG chunk ${JSON.stringify(type)} fails its checksum`;
    if (chunks === 0) {
      if (type !== "IHDR" || length !== 13 || u32(b, at + 8) === 0 || u32(b, at + 12) === 0) return "is damaged: its PNG header is missing or has no size";
      header = { width: u32(b, at + 8), height: u32(b, at + 12), depth: b[at + 16]!, colour: b[at + 17]!, interlaced: b[at + 20] === 1 };
    }
    if (type === "IDAT") data.push(b.subarray(at + 8, at + 8 + length));
    if (type === "IEND") return data.length ? pixelsProblem(header!, data) : "is damaged: it has no PNG image data";
    chunks++;
    at += 12 + length;
  }
  return "is damaged: it ends before the PNG image does";
}

function pixelsProblem(h: { width: number; height: number; depth: number; colour: number; interlaced: boolean }, data: Uint8Array[]): string | undefined {
  const channels = PNG_CHANNELS[h.colour];
  if (!channels) return "is damaged: its PNG header names no colour type";
  const rows = h.height * (1 + Math.ceil((h.width * channels * h.depth) / 8));
  // A very large image is left to the browser rather than held in the worker's memory to check.
  if (rows > MAX_CHECKED_PIXEL_BYTES) return undefined;
  let pixels: Buffer;
  try {
    // why the bound: a few bytes can claim gigabytes; no more than the header promises is needed.
    pixels = zlib.inflateSync(Buffer.concat(data), { maxOutputLength: rows + 1024 });
  } catch (e) {
    return /maxOutputLength|buffer/i.test((e as Error).message) ? undefined : "is damaged: its PNG image data cannot be decompressed";
  }
  // Interlaced rows are laid out in passes of other lengths; they must still be there.
  if (!h.interlaced && pixels.length < rows) return "is damaged: its PNG image data is shorter than the image";
  return undefined;
}

/** JPEG: marker segments in bounds up to the image data, with a frame header before it. */
function jpegProblem(b: Uint8Array): string | undefined {
  let at = 2;
  let frame = false;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return "is damaged: its JPEG structure is broken";
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) break; // end of image before any image data
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = u16(b, at + 2);
    if (length < 2 || at + 2 + length > b.length) return "is damaged: a JPEG segment runs past the end of the file";
    if ((marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) && length >= 8) {
      if (u16(b, at + 7) === 0) return "is damaged: its JPEG frame has no width";
      frame = true;
    }
    if (marker === 0xda) return frame ? undefined : "is damaged: its JPEG image data comes before a frame header";
    at += 2 + length;
  }
  return "is damaged: it ends before the JPEG image data";
}

/** UTF-8 text without its byte order mark, or undefined when the bytes are not UTF-8. */
function utf8(b: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    return undefined;
  }
}

/** SVG: XML (UTF-8, or UTF-16 with a byte order mark) whose root element is <svg>. */
function svgProblem(b: Uint8Array): string | undefined {
  let text: string | undefined;
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) {
    try {
      text = new TextDecoder(b[0] === 0xff ? "utf-16le" : "utf-16be", { fatal: true }).decode(b);
    } catch {
      return "is not valid UTF-16 text";
    }
  } else {
    // why latin1 first: a declaration may name another encoding, and the prolog is ASCII either way.
    const head = Buffer.from(b.buffer, b.byteOffset, Math.min(b.byteLength, 200)).toString("latin1");
    const declared = /^(?:\ufeff|\xef\xbb\xbf)?\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
    if (declared && !/^utf-?8$/i.test(declared)) text = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1").replace(/^\xef\xbb\xbf/, "");
    else text = utf8(b);
    if (text === undefined) return "is not valid UTF-8 text";
  }
  return svgRoot(text) ? undefined : `is declared as image/svg+xml but ${/^\s*</.test(text.replace(/^\ufeff/, "")) ? "its root element is not <svg>" : "is not XML"}`;
}

/** Whether the first element of an XML text, past its prolog, is an svg element (with or without a prefix). */
function svgRoot(text: string): boolean {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith("<?", at)) at = skipPast(text, at, "?>");
    else if (text.startsWith("<!--", at)) at = skipPast(text, at, "-->");
    else if (text.startsWith("<!DOCTYPE", at) || text.startsWith("<!doctype", at)) at = skipDoctype(text, at);
    else break;
    if (at < 0) return false;
  }
  return /^<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]/.test(text.slice(at, at + 300));
}

function skipPast(text: string, at: number, end: string) {
  const i = text.indexOf(end, at);
  return i < 0 ? -1 : i + end.length;
}

/** Past a doctype, which may hold an internal subset in brackets. */
function skipDoctype(text: string, at: number) {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === ">" && depth <= 0) return i + 1;
  }
  return -1;
}

/** TrueType and OpenType (sfnt): a table directory whose tables lie inside the file. */
function sfntProblem(b: Uint8Array): string | undefined {
  if (b.length < 12) return "is damaged: it ends inside its font header";
  const n = u16(b, 4);
  if (n === 0) return "is damaged: its font has no tables";
  if (12 + 16 * n > b.length) return "is damaged: it ends inside its font table directory";
  for (let i = 0; i < n; i++) {
    const rec = 12 + 16 * i;
    const offset = u32(b, rec + 8);
    const length = u32(b, rec + 12);
    if (offset > b.length || length > b.length - offset) return `is damaged: its font table ${tag(b, rec)} lies past the end of the file (it was cut short)`;
  }
  return undefined;
}

/** WOFF: the header's file length, and each table's compressed data inside the file. */
function woffProblem(b: Uint8Array): string | undefined {
  if (b.length < 44) return "is damaged: it ends inside its WOFF header";
  if (u32(b, 8) !== b.length) return `is damaged: its WOFF header says ${u32(b, 8)} bytes, the file has ${b.length} (it was cut short or padded)`;
  const n = u16(b, 12);
  if (n === 0) return "is damaged: its font has no tables";
  if (44 + 20 * n > b.length) return "is damaged: it ends inside its font table directory";
  for (let i = 0; i < n; i++) {
    const rec = 44 + 20 * i;
    const offset = u32(b, rec + 4);
    const compLength = u32(b, rec + 8);
    if (offset > b.length || compLength > b.length - offset) return `is damaged: its font table ${tag(b, rec)} lies past the end of the file`;
  }
  return undefined;
}

/** WOFF2: the header's file length (the tables are one compressed stream, checked by parsing the font). */
function woff2Problem(b: Uint8Array): string | undefined {
  if (b.length < 48) return "is damaged: it ends inside its WOFF2 header";
  if (u32(b, 8) !== b.length) return `is damaged: its WOFF2 header says ${u32(b, 8)} bytes, the file has ${b.length} (it was cut short or padded)`;
  if (u16(b, 12) === 0) return "is damaged: its font has no tables";
  return undefined;
}

const tag = (b: Uint8Array, at: number) => JSON.stringify(String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!));
