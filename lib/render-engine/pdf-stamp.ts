/**
 * Draws each page of one PDF (the overlay: the printed headers and footers) over the page of the
 * same number of another (the body), as an incremental update appended to the body: the overlay's
 * pages become Form XObjects, and each body page gets one more content stream that draws its
 * XObject as a pagination artifact. Nothing of the body is parsed beyond its page tree, and nothing
 * of it is rewritten, so the cost is that of copying the overlay's objects (its fonts, images and
 * one small content stream per page) whatever the size of the body.
 *
 * It reads PDFs as Chromium (Skia) writes them: classic cross-reference tables, no object streams,
 * one content stream per overlay page. Anything else throws PdfShapeError, and the caller falls
 * back to pdf-lib (stampWithPdfLib), which reads any PDF at many times the cost.
 */
import { PDFDocument } from "pdf-lib";

/** The PDF is not shaped as this module reads it (not a failure of the document). */
export class PdfShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PdfShapeError";
  }
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelim = (c: number) => c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Text of PDF syntax (latin1: one character per byte) and a tokenizer over it. */
class Source {
  constructor(readonly s: string) {}

  /** Skips whitespace and comments from i. */
  skip(i: number): number {
    const s = this.s;
    for (;;) {
      while (i < s.length && isWs(s.charCodeAt(i))) i++;
      if (s.charCodeAt(i) !== 0x25) return i; // %
      while (i < s.length && s.charCodeAt(i) !== 0x0a && s.charCodeAt(i) !== 0x0d) i++;
    }
  }

  /** The end (exclusive) of the value starting at i (no leading whitespace); "n g R" is one value. */
  valueEnd(i: number): number {
    const s = this.s;
    const c = s.charCodeAt(i);
    if (c === 0x3c && s.charCodeAt(i + 1) === 0x3c) return this.dictEnd(i);
    if (c === 0x3c) {
      const close = s.indexOf(">", i);
      if (close < 0) throw new PdfShapeError("unterminated hex string");
      return close + 1;
    }
    if (c === 0x28) return this.stringEnd(i);
    if (c === 0x5b) {
      let j = this.skip(i + 1);
      while (s.charCodeAt(j) !== 0x5d) {
        if (j >= s.length) throw new PdfShapeError("unterminated array");
        j = this.skip(this.valueEnd(j));
      }
      return j + 1;
    }
    if (c === 0x2f) return this.tokenEnd(i + 1);
    const end = this.tokenEnd(i);
    if (end === i) throw new PdfShapeError(`unexpected ${JSON.stringify(s[i])} at ${i}`);
    if (isDigit(c)) {
      // An indirect reference: two integers and R.
      const m = /\s+\d+\s+R(?=[\s()<>[\]{}/%]|$)/y;
      m.lastIndex = end;
      if (/^\d+$/.test(s.slice(i, end)) && m.exec(s)) return m.lastIndex;
    }
    return end;
  }

  private tokenEnd(i: number): number {
    const s = this.s;
    while (i < s.length && !isWs(s.charCodeAt(i)) && !isDelim(s.charCodeAt(i))) i++;
    return i;
  }

  private stringEnd(i: number): number {
    const s = this.s;
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === 0x5c) j++; // backslash escapes the next character
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return j + 1;
    }
    throw new PdfShapeError("unterminated string");
  }

  private dictEnd(i: number): number {
    return this.dict(i).end;
  }

  /** The dictionary at i: each key (without its slash) with the span of its value. */
  dict(i: number): { entries: Map<string, [number, number]>; end: number } {
    const s = this.s;
    if (!s.startsWith("<<", i)) throw new PdfShapeError(`no dictionary at ${i}`);
    const entries = new Map<string, [number, number]>();
    let j = this.skip(i + 2);
    while (!s.startsWith(">>", j)) {
      if (j >= s.length || s.charCodeAt(j) !== 0x2f) throw new PdfShapeError(`no name in dictionary at ${j}`);
      const keyEnd = this.tokenEnd(j + 1);
      const key = s.slice(j + 1, keyEnd);
      const v = this.skip(keyEnd);
      const vEnd = this.valueEnd(v);
      entries.set(key, [v, vEnd]);
      j = this.skip(vEnd);
    }
    return { entries, end: j + 2 };
  }
}

type Ref = { num: number; gen: number };
const refPattern = /^(\d+)\s+(\d+)\s+R$/;

function asRef(text: string): Ref | undefined {
  const m = refPattern.exec(text.trim());
  return m ? { num: Number(m[1]), gen: Number(m[2]) } : undefined;
}

/**
 * Applies `fn` to every indirect reference in a value's text, leaving strings (where "1 0 R" is
 * only text) alone.
 */
function mapRefs(text: string, fn: (r: Ref) => string): string {
  let out = "";
  let last = 0;
  const ref = /(\d+)\s+(\d+)\s+R(?=[\s()<>[\]{}/%]|$)/y;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x28) {
      // a literal string: skip it, balanced parentheses and escapes included
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) j++;
        else if (d === 0x28) depth++;
        else if (d === 0x29 && --depth === 0) break;
      }
      i = j + 1;
    } else if (c === 0x3c && text.charCodeAt(i + 1) !== 0x3c) {
      const close = text.indexOf(">", i);
      i = close < 0 ? text.length : close + 1;
    } else if (c === 0x3c || c === 0x3e) {
      i += 2;
    } else if (isDigit(c) && (i === 0 || isWs(text.charCodeAt(i - 1)) || isDelim(text.charCodeAt(i - 1)))) {
      ref.lastIndex = i;
      const m = ref.exec(text);
      if (m) {
        out += text.slice(last, i) + fn({ num: Number(m[1]), gen: Number(m[2]) });
        last = i = ref.lastIndex;
      } else {
        while (i < text.length && !isWs(text.charCodeAt(i)) && !isDelim(text.charCodeAt(i))) i++;
      }
    } else i++;
  }
  return out + text.slice(last);
}

function refsIn(text: string): Ref[] {
  const found: Ref[] = [];
  mapRefs(text, (r) => {
    found.push(r);
    return "";
  });
  return found;
}

type PdfObject = {
  num: number;
  /** The object's value (a dictionary for a stream) as text. */
  value: string;
  /** Byte span of a stream's data in the file. */
  stream?: [number, number];
};

/**
 * A parsed PDF: where each object is, and the trailer. Only the parts read are decoded (the
 * cross-reference sections, and a window around each object read): a body of 2 MB and ten thousand
 * objects is read in well under a millisecond.
 */
class Pdf {
  /** Cross-reference subsections, newest section first: entries of 20 bytes from `at`. */
  private readonly sections: { first: number; count: number; at: number }[] = [];
  readonly trailer: Map<string, string>;
  readonly startxref: number;
  readonly size: number;
  private readonly cache = new Map<number, PdfObject>();

  constructor(readonly bytes: Buffer) {
    const tail = bytes.toString("latin1", Math.max(0, bytes.length - 1024));
    const at = tail.lastIndexOf("startxref");
    if (at < 0) throw new PdfShapeError("no startxref");
    this.startxref = Number(/startxref\s+(\d+)/.exec(tail.slice(at, at + 40))?.[1]);
    if (!Number.isInteger(this.startxref) || this.startxref >= bytes.length) throw new PdfShapeError("bad startxref");
    let trailer: Map<string, string> | undefined;
    for (let xref: number | undefined = this.startxref, hops = 0; xref !== undefined; hops++) {
      if (hops > 50) throw new PdfShapeError("cross-reference chain too long");
      const t = this.readXrefSection(xref);
      trailer ??= t;
      const prev = t.get("Prev");
      xref = prev === undefined ? undefined : Number(prev);
    }
    this.trailer = trailer!;
    this.size = Number(this.trailer.get("Size"));
    if (!Number.isInteger(this.size)) throw new PdfShapeError("trailer without Size");
  }

  /**
   * Notes where a classic cross-reference section's subsections are; entries are read when an
   * object is (a body of ten thousand objects needs a few dozen of them).
   */
  private readXrefSection(at: number): Map<string, string> {
    if (!Number.isInteger(at) || at < 0 || at >= this.bytes.length) throw new PdfShapeError("bad cross-reference offset");
    // The section runs to the trailer, which a section of the file's end follows.
    const end = this.bytes.indexOf("startxref", at, "latin1");
    const src = new Source(this.bytes.toString("latin1", at, end < 0 ? this.bytes.length : end));
    const s = src.s;
    if (!s.startsWith("xref")) throw new PdfShapeError("not a classic cross-reference table");
    let i = src.skip(4);
    const header = /(\d+)[ \t]+(\d+)[ \t]*(?:\r\n|\r|\n)/y;
    while (!s.startsWith("trailer", i)) {
      header.lastIndex = i;
      const h = header.exec(s);
      if (!h) throw new PdfShapeError(`bad cross-reference subsection at ${at + i}`);
      const count = Number(h[2]);
      this.sections.push({ first: Number(h[1]), count, at: at + header.lastIndex });
      // spec: each entry is exactly 20 bytes, its end of line included.
      i = src.skip(header.lastIndex + count * 20);
    }
    const d = src.dict(src.skip(i + "trailer".length));
    return new Map([...d.entries].map(([k, [a, b]]) => [k, s.slice(a, b)]));
  }

  /** The offset of an object in use, from the newest section that lists it. */
  private offsetOf(num: number): number {
    for (const sec of this.sections) {
      if (num < sec.first || num >= sec.first + sec.count) continue;
      const at = sec.at + (num - sec.first) * 20;
      const e = /^(\d{10}) (\d{5}) ([nf])[ \r\n]{2}$/.exec(this.bytes.toString("latin1", at, at + 20));
      if (!e) throw new PdfShapeError(`bad cross-reference entry for object ${num}`);
      if (e[3] === "n") return Number(e[1]);
      throw new PdfShapeError(`object ${num} is free`);
    }
    throw new PdfShapeError(`object ${num} is not in the file`);
  }

  object(num: number): PdfObject {
    const cached = this.cache.get(num);
    if (cached) return cached;
    const at = this.offsetOf(num);
    // A window from the object's start, widened until its value (and a stream keyword) fits.
    for (let size = 2048; ; size *= 4) {
      const end = Math.min(this.bytes.length, at + size);
      try {
        const obj = this.parseObject(num, at, new Source(this.bytes.toString("latin1", at, end)), end === this.bytes.length);
        this.cache.set(num, obj);
        return obj;
      } catch (e) {
        if (!(e instanceof PdfShapeError) || end === this.bytes.length) throw e;
      }
    }
  }

  private parseObject(num: number, at: number, src: Source, whole: boolean): PdfObject {
    const s = src.s;
    const head = /(\d+)\s+(\d+)\s+obj/y;
    const m = head.exec(s);
    if (!m || Number(m[1]) !== num) throw new PdfShapeError(`object ${num} is not at its offset`);
    const v = src.skip(head.lastIndex);
    const vEnd = src.valueEnd(v);
    const obj: PdfObject = { num, value: s.slice(v, vEnd) };
    let j = src.skip(vEnd);
    if (j + 7 > s.length && !whole) throw new PdfShapeError("window too small");
    if (s.startsWith("stream", j)) {
      j += 6;
      if (s.charCodeAt(j) === 0x0d) j++;
      if (s.charCodeAt(j) === 0x0a) j++;
      const lengthText = src.dict(v).entries.get("Length");
      if (!lengthText) throw new PdfShapeError(`stream ${num} without Length`);
      const lengthValue = s.slice(lengthText[0], lengthText[1]);
      const lengthRef = asRef(lengthValue);
      const length = Number(lengthRef ? this.object(lengthRef.num).value : lengthValue);
      const start = at + j;
      if (!Number.isInteger(length) || length < 0 || start + length > this.bytes.length) throw new PdfShapeError(`stream ${num} has a bad Length`);
      if (!/^\s*endstream/.test(this.bytes.toString("latin1", start + length, start + length + 20))) throw new PdfShapeError(`stream ${num} does not end at its Length`);
      obj.stream = [start, start + length];
    }
    return obj;
  }

  /** The entries of a dictionary given as text (a value of this file). */
  entries(dictText: string): Map<string, string> {
    const src = new Source(dictText);
    const d = src.dict(0);
    return new Map([...d.entries].map(([k, [a, b]]) => [k, dictText.slice(a, b)]));
  }

  /** A value, following one indirect reference. */
  resolve(text: string): string {
    const r = asRef(text);
    return r ? this.object(r.num).value : text;
  }

  /** The page objects in order. */
  pages(): { num: number; dict: Map<string, string> }[] {
    const root = this.entries(this.resolve(this.trailer.get("Root") ?? ""));
    const out: { num: number; dict: Map<string, string> }[] = [];
    const walk = (ref: string, depth: number) => {
      const r = asRef(ref);
      if (!r || depth > 64) throw new PdfShapeError("bad page tree");
      const dict = this.entries(this.object(r.num).value);
      const type = dict.get("Type");
      if (type === "/Pages") {
        const kids = dict.get("Kids") ?? "[]";
        for (const kid of refsIn(kids)) walk(`${kid.num} ${kid.gen} R`, depth + 1);
      } else if (type === "/Page") out.push({ num: r.num, dict });
      else throw new PdfShapeError(`page tree node of type ${type}`);
    };
    walk(root.get("Pages") ?? "", 0);
    return out;
  }

  /** A page's value of an inheritable key (Resources, MediaBox), from the page or its ancestors. */
  inherited(dict: Map<string, string>, key: string): string | undefined {
    let d: Map<string, string> | undefined = dict;
    for (let depth = 0; d && depth < 64; depth++) {
      const v = d.get(key);
      if (v !== undefined) return v;
      const parent = d.get("Parent");
      d = parent ? this.entries(this.resolve(parent)) : undefined;
    }
    return undefined;
  }
}

const dictText = (entries: Map<string, string>) => `<<${[...entries].map(([k, v]) => `/${k} ${v}`).join("\n")}>>`;

const numbers = (box: string) => (box.match(/-?[\d.]+/g) ?? []).map(Number);

/** The content appended to every body page: the page's margins XObject, as a pagination artifact. */
const drawOp = (name: string) => `Q\n/Artifact <</Type /Pagination>> BDC\nq\n/${name} Do\nQ\nEMC\n`;

/**
 * The body with each overlay page drawn over a body page of the same size, as an incremental
 * update: overlay page j over body page targets[j] (indexes from 0; by default page j over page j,
 * and the two have as many pages). Throws PdfShapeError for a PDF it does not read (see the
 * module's comment).
 */
export function stampPages(body: Uint8Array, overlay: Uint8Array, targets?: number[]): Buffer {
  const bodyBytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const b = new Pdf(bodyBytes);
  const o = new Pdf(Buffer.from(overlay.buffer, overlay.byteOffset, overlay.byteLength));
  const allBodyPages = b.pages();
  const overlayPages = o.pages();
  const to = targets ?? allBodyPages.map((_, i) => i);
  if (to.length !== overlayPages.length || to.some((t) => !allBodyPages[t])) {
    throw new PdfShapeError(`${overlayPages.length} overlay pages for ${to.length} of the body's ${allBodyPages.length} pages`);
  }
  const bodyPages = to.map((t) => allBodyPages[t]!);

  const out: (string | Buffer)[] = [];
  let offset = bodyBytes.length;
  const xref = new Map<number, number>();
  const push = (part: string | Buffer) => {
    out.push(part);
    offset += typeof part === "string" ? part.length : part.length;
  };
  /** Writes an object; a stream's data is copied from its file's bytes. */
  const write = (num: number, value: string, stream?: Buffer) => {
    xref.set(num, offset);
    push(`${num} 0 obj\n${value}`);
    if (stream) {
      push("\nstream\n");
      push(stream);
      push("\nendstream");
    }
    push("\nendobj\n");
  };
  if (bodyBytes[bodyBytes.length - 1] !== 0x0a) push("\n");

  // The overlay's objects the pages need, renumbered after the body's.
  let next = b.size;
  const renumbered = new Map<number, number>();
  const newNum = (r: Ref) => {
    let n = renumbered.get(r.num);
    if (n === undefined) {
      n = next++;
      renumbered.set(r.num, n);
      pending.push(r.num);
    }
    return `${n} 0 R`;
  };
  const pending: number[] = [];
  const copyPending = () => {
    while (pending.length) {
      const num = pending.pop()!;
      const obj = o.object(num);
      const value = mapRefs(obj.value, newNum);
      write(renumbered.get(num)!, value, obj.stream ? o.bytes.subarray(obj.stream[0], obj.stream[1]) : undefined);
    }
  };

  // Shared by every body page: "q" before the page's own content, and the drawing after it.
  const name = "FolioMargins";
  const openNum = next++;
  const drawNum = next++;
  write(openNum, `<</Length 2>>`, Buffer.from("q\n", "latin1"));
  const draw = drawOp(name);
  write(drawNum, `<</Length ${draw.length}>>`, Buffer.from(draw, "latin1"));

  for (let i = 0; i < bodyPages.length; i++) {
    const page = bodyPages[i]!;
    const over = overlayPages[i]!;
    const box = o.inherited(over.dict, "MediaBox");
    const bodyBox = b.inherited(page.dict, "MediaBox");
    if (!box || !bodyBox) throw new PdfShapeError("page without MediaBox");
    const [ox0, oy0, ox1, oy1] = numbers(o.resolve(box));
    const [bx0, by0, bx1, by1] = numbers(b.resolve(bodyBox));
    if ([ox0! - bx0!, oy0! - by0!, ox1! - bx1!, oy1! - by1!].some((d) => Math.abs(d) > 0.5)) {
      throw new PdfShapeError(`overlay page ${i + 1} is ${box}, the body's ${bodyBox}`);
    }

    // The overlay page as a Form XObject: its content stream's data with the page's resources.
    const contents = over.dict.get("Contents");
    const contentRefs = contents ? refsIn(contents) : [];
    if (contentRefs.length !== 1) throw new PdfShapeError(`overlay page ${i + 1} has ${contentRefs.length} content streams`);
    const content = o.object(contentRefs[0]!.num);
    if (!content.stream) throw new PdfShapeError("overlay content is not a stream");
    const form = o.entries(content.value);
    for (const k of ["Type", "Subtype", "BBox", "Resources", "Matrix", "Group"]) form.delete(k);
    const formDict = new Map([["Type", "/XObject"], ["Subtype", "/Form"], ["BBox", `[${[ox0, oy0, ox1, oy1].join(" ")}]`]]);
    const resources = o.inherited(over.dict, "Resources");
    if (resources) formDict.set("Resources", mapRefs(resources, newNum));
    const group = over.dict.get("Group");
    if (group) formDict.set("Group", mapRefs(group, newNum));
    for (const [k, v] of form) formDict.set(k, mapRefs(v, newNum));
    const formNum = next++;
    write(formNum, dictText(formDict), o.bytes.subarray(content.stream[0], content.stream[1]));
    copyPending();

    // The body page: its content between q and Q, then the drawing; the XObject in its resources.
    const dict = new Map(page.dict);
    const ownContents = dict.get("Contents");
    const ownRefs = ownContents === undefined ? [] : refsIn(ownContents).map((r) => `${r.num} ${r.gen} R`);
    dict.set("Contents", `[${[`${openNum} 0 R`, ...ownRefs, `${drawNum} 0 R`].join(" ")}]`);
    const res = b.entries(b.resolve(b.inherited(page.dict, "Resources") ?? "<<>>"));
    const xobjects = res.has("XObject") ? b.entries(b.resolve(res.get("XObject")!)) : new Map<string, string>();
    if (xobjects.has(name)) throw new PdfShapeError(`body page ${i + 1} already has an XObject named ${name}`);
    xobjects.set(name, `${formNum} 0 R`);
    res.set("XObject", dictText(xobjects));
    dict.set("Resources", dictText(res));
    write(page.num, dictText(dict));
  }

  // The cross-reference section of the update, in runs of consecutive numbers.
  const xrefAt = offset;
  const nums = [...xref.keys()].sort((x, y) => x - y);
  let table = "xref\n";
  for (let k = 0; k < nums.length; ) {
    let end = k;
    while (end + 1 < nums.length && nums[end + 1] === nums[end]! + 1) end++;
    table += `${nums[k]} ${end - k + 1}\n`;
    for (let q = k; q <= end; q++) table += `${String(xref.get(nums[q]!)).padStart(10, "0")} 00000 n \n`;
    k = end + 1;
  }
  const trailer = new Map<string, string>([["Size", String(next)]]);
  for (const k of ["Root", "Info", "ID"]) if (b.trailer.has(k)) trailer.set(k, b.trailer.get(k)!);
  trailer.set("Prev", String(b.startxref));
  push(`${table}trailer\n${dictText(trailer)}\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat([bodyBytes, ...out.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : p))]);
}

/** The same as stampPages through pdf-lib: reads any PDF, at many times the cost. */
export async function stampWithPdfLib(body: Uint8Array, overlay: Uint8Array, targets?: number[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(body, { updateMetadata: false });
  const over = await PDFDocument.load(overlay, { updateMetadata: false });
  const pages = doc.getPages();
  const to = targets ?? pages.map((_, i) => i);
  if (to.length !== over.getPageCount() || to.some((t) => !pages[t])) throw new Error(`${over.getPageCount()} overlay pages for ${to.length} of the body's ${pages.length} pages`);
  const embedded = await doc.embedPages(over.getPages());
  to.forEach((t, j) => {
    const page = pages[t]!;
    page.drawPage(embedded[j]!);
  });
  return doc.save({ useObjectStreams: false });
}
