/**
 * Zip archives of callers' bytes (workbooks, report archives, workspace exports), read and written
 * by Folio's own code over node:zlib. why not a package: the reader is the guard, and each of its
 * refusals is a rule of the spec (Limits > Imports and exports) or of docs/api.md ("Zip archives")
 * that must hold before a byte is inflated, with the message a person can act on; the readers on
 * npm inflate first and leave names and bombs to the caller. Runs in the helper processes only
 * (lib/helper-process/jobs.ts): a parser of callers' bytes never runs on the web's event loop.
 *
 * The reader trusts the central directory only after checking it against each local header (same
 * name, same sizes), refuses what Folio never needs (encryption, ZIP64, methods other than store and
 * deflate, symbolic links), and inflates against budgets: each entry at most its declared size and
 * at most `maxRatio` times its compressed size, all of them together at most `maxTotalBytes`. So an
 * archive that lies about its sizes, or overlapping entries that inflate the same bytes many times,
 * end at the budget, not in memory.
 */
import zlib from "node:zlib";

/** A refusal of an archive: its message names the entry and the rule (400 BAD_REQUEST for callers). */
export class ZipError extends Error {
  override name = "ZipError";
}

/** A refusal for a count or size limit (more entries, more bytes once decoded): LIMIT_EXCEEDED for callers. */
export class ZipLimitError extends ZipError {
  override name = "ZipLimitError";
}

export type ZipLimits = {
  /** Entries at most, folders included. */
  maxEntries: number;
  /** Bytes of every entry inflated, together. */
  maxTotalBytes: number;
  /** An entry inflates to at most this many times its compressed size (a bomb's sign), past the first MiB. */
  maxRatio: number;
  /** A name's bytes (UTF-8) at most, and each of its segments' at most 255. */
  maxNameBytes: number;
  /** Refuse two names that differ only in letter case (archives a person unpacks on macOS or Windows). */
  caseInsensitive?: boolean;
};

export type ZipEntry = {
  name: string;
  /** Folders end with "/" and hold nothing. */
  isFolder: boolean;
  method: 0 | 8;
  crc32: number;
  compressedSize: number;
  size: number;
  /** The entry's bytes as stored (compressed for method 8): a view into the archive, not a copy. */
  raw: Buffer;
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The ratio applies past this much output: small parts of a workbook compress far better than a bomb needs. */
const RATIO_FLOOR = 1 << 20;
const UNIX = 3;
/** General purpose flag bit 3: sizes and checksum follow the data. */
const DATA_DESCRIPTOR = 0x0008;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The name a person reads in a message: control characters shown as \uXXXX, long ones cut. */
export function shownName(name: string): string {
  const shown = JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
  return shown;
}

/**
 * Why a name is refused, or undefined: empty, absolute (/, \, C:), a backslash, a "." or ".."
 * segment, an empty segment, NUL or another control character, or too long.
 */
export function badName(name: string, maxNameBytes: number): string | undefined {
  if (name === "" || name === "/") return "an empty name";
  if (Buffer.byteLength(name) > maxNameBytes) return `a name longer than ${maxNameBytes} bytes`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return "a control character in its name";
  if (name.includes("\\")) return "a backslash in its name (zip names use /)";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "an absolute path";
  const segments = (name.endsWith("/") ? name.slice(0, -1) : name).split("/");
  for (const s of segments) {
    if (s === "") return "an empty folder name (//)";
    if (s === "." || s === "..") return `a "${s}" segment (a path out of the archive)`;
    if (Buffer.byteLength(s) > 255) return "a file or folder name longer than 255 bytes";
  }
  return undefined;
}

/** The end of central directory record, found from the end (its comment may follow it). */
function findEnd(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD && i + 22 + buf.readUInt16LE(i + 20) === buf.length) return i;
  }
  throw new ZipError("not a zip archive (no end of central directory)");
}

/**
 * The entries of an archive, checked (names, duplicates, counts, declared sizes, local headers) but
 * not inflated. Throws ZipError naming the first entry that breaks a rule.
 */
export function readZip(buf: Buffer, limits: ZipLimits): ZipEntry[] {
  if (buf.length < 22) throw new ZipError("not a zip archive (too short)");
  const end = findEnd(buf);
  const disk = buf.readUInt16LE(end + 4);
  const count = buf.readUInt16LE(end + 10);
  const dirSize = buf.readUInt32LE(end + 12);
  const dirStart = buf.readUInt32LE(end + 16);
  if (disk !== 0 || buf.readUInt16LE(end + 6) !== 0 || buf.readUInt16LE(end + 8) !== count) throw new ZipError("a split (multi-part) zip archive; send it as one file");
  if (count === 0xffff || dirStart === 0xffffffff || dirSize === 0xffffffff) throw new ZipError("a ZIP64 archive, which Folio does not read (archives are far smaller than 4 GB)");
  if (count > limits.maxEntries) throw new ZipLimitError(`${count.toLocaleString("en-US")} entries; an archive holds at most ${limits.maxEntries.toLocaleString("en-US")}`);
  if (dirStart + dirSize > end) throw new ZipError("a damaged archive (its central directory is out of range)");
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let declared = 0;
  let at = dirStart;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || buf.readUInt32LE(at) !== CENTRAL) throw new ZipError("a damaged archive (its central directory ends early)");
    const madeBy = buf.readUInt16LE(at + 4);
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc32 = buf.readUInt32LE(at + 16);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const external = buf.readUInt32LE(at + 38);
    const offset = buf.readUInt32LE(at + 42);
    const nameBytes = buf.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (at > end) throw new ZipError("a damaged archive (its central directory ends early)");
    // why: a name that is not UTF-8 decodes to U+FFFD, which two different names may share.
    const name = new TextDecoder("utf-8", { fatal: false }).decode(nameBytes);
    const shown = shownName(name);
    if (name.includes("\uFFFD")) throw new ZipError(`entry ${shown}: a name that is not UTF-8`);
    const bad = badName(name, limits.maxNameBytes);
    if (bad) throw new ZipError(`entry ${shown}: ${bad}`);
    if (flags & 0x1) throw new ZipError(`entry ${shown}: encrypted; send the archive without a password`);
    if (method !== 0 && method !== 8) throw new ZipError(`entry ${shown}: compression method ${method}; Folio reads stored and deflated entries only`);
    if (compressedSize === 0xffffffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipError(`entry ${shown}: ZIP64 sizes, which Folio does not read`);
    if (madeBy >> 8 === UNIX && ((external >>> 16) & S_IFMT) === S_IFLNK) throw new ZipError(`entry ${shown}: a symbolic link; an archive holds files and folders only`);
    const key = limits.caseInsensitive ? name.toLowerCase() : name;
    if (seen.has(key)) throw new ZipError(`entry ${shown}: a duplicate name${limits.caseInsensitive ? " (names are compared ignoring letter case)" : ""}`);
    seen.add(key);
    const isFolder = name.endsWith("/");
    if (isFolder && size !== 0) throw new ZipError(`entry ${shown}: a folder with contents`);
    declared += size;
    if (declared > limits.maxTotalBytes) throw new ZipLimitError(`more than ${limits.maxTotalBytes.toLocaleString("en-US")} bytes once decoded`);
    if (size > RATIO_FLOOR && size > compressedSize * limits.maxRatio) throw new ZipError(`entry ${shown}: decodes to more than ${limits.maxRatio} times its compressed size (a zip bomb's sign)`);
    // The local header must agree with the central one: readers that trust either can be shown two files.
    if (offset + 30 > dirStart || buf.readUInt32LE(offset) !== LOCAL) throw new ZipError(`entry ${shown}: a damaged archive (no local header)`);
    const localName = buf.subarray(offset + 30, offset + 30 + buf.readUInt16LE(offset + 26));
    const localFlags = buf.readUInt16LE(offset + 6);
    // Sizes and checksum too, unless they follow the data (bit 3: a data descriptor).
    const sameSizes = localFlags & DATA_DESCRIPTOR || (buf.readUInt32LE(offset + 14) === crc32 && buf.readUInt32LE(offset + 18) === compressedSize && buf.readUInt32LE(offset + 22) === size);
    if (!localName.equals(nameBytes) || buf.readUInt16LE(offset + 8) !== method || (localFlags & 0x1) !== (flags & 0x1) || !sameSizes) throw new ZipError(`entry ${shown}: its local header disagrees with the central directory`);
    const dataStart = offset + 30 + buf.readUInt16LE(offset + 26) + buf.readUInt16LE(offset + 28);
    if (dataStart + compressedSize > dirStart) throw new ZipError(`entry ${shown}: a damaged archive (its data is out of range)`);
    if (method === 0 && compressedSize !== size) throw new ZipError(`entry ${shown}: a stored entry whose sizes differ`);
    entries.push({ name, isFolder, method, crc32, compressedSize, size, raw: buf.subarray(dataStart, dataStart + compressedSize) });
  }
  return entries;
}

/**
 * Inflates reading the whole archive: what each entry holds, with `budget.left` (bytes of the total
 * still allowed) lowered as it goes. Throws ZipError when an entry inflates past its declared size,
 * its ratio or the budget, or its checksum differs.
 */
export function inflate(entry: ZipEntry, limits: Pick<ZipLimits, "maxRatio" | "maxTotalBytes">, budget: { left: number }): Buffer {
  const shown = shownName(entry.name);
  const allowed = Math.min(entry.size, budget.left, Math.max(RATIO_FLOOR, entry.compressedSize * limits.maxRatio));
  let out: Buffer;
  if (entry.method === 0) out = entry.raw;
  else {
    try {
      // why maxOutputLength: zlib stops at it, so a lying entry costs at most its allowance.
      out = zlib.inflateRawSync(entry.raw, { maxOutputLength: Math.max(1, allowed + 1) });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "ERR_BUFFER_TOO_LARGE") throw new ZipError(bombMessage(entry, limits, budget));
      throw new ZipError(`entry ${shown}: damaged compressed data`);
    }
  }
  if (out.length > allowed) throw new ZipError(bombMessage(entry, limits, budget));
  if (out.length !== entry.size) throw new ZipError(`entry ${shown}: decodes to ${out.length} bytes, not the ${entry.size} it declares`);
  if (zlib.crc32(out) !== entry.crc32) throw new ZipError(`entry ${shown}: its checksum does not match (a damaged archive)`);
  budget.left -= out.length;
  return out;
}

function bombMessage(entry: ZipEntry, limits: Pick<ZipLimits, "maxRatio" | "maxTotalBytes">, budget: { left: number }): string {
  if (entry.size > budget.left) return `more than ${limits.maxTotalBytes.toLocaleString("en-US")} bytes once decoded`;
  return `entry ${shownName(entry.name)}: decodes to more than it declares or to more than ${limits.maxRatio} times its compressed size (a zip bomb's sign)`;
}

/** One entry inflated, as text (UTF-8). */
export function inflateText(entry: ZipEntry, limits: Pick<ZipLimits, "maxRatio" | "maxTotalBytes">, budget: { left: number }): string {
  return inflate(entry, limits, budget).toString("utf8");
}

// --- Writing ---

/** 1980-01-01 00:00, the zip format's first day: the same archive for the same contents. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const UTF8_NAMES = 0x0800;

type Written = { name: Buffer; method: 0 | 8; crc32: number; compressedSize: number; size: number; offset: number; flags: number };

/**
 * A zip archive written front to back into `chunks` (the caller sends or joins them): entries from
 * bytes, entries copied as stored from another archive (untouched parts keep their bytes), and
 * entries streamed through deflate from text produced piece by piece, never held whole.
 */
export class ZipWriter {
  readonly chunks: Buffer[] = [];
  private offset = 0;
  private readonly written: Written[] = [];

  private push(b: Buffer): void {
    this.chunks.push(b);
    this.offset += b.length;
  }

  private local(name: Buffer, method: 0 | 8, flags: number, crc: number, compressedSize: number, size: number): void {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(LOCAL, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(flags, 6);
    h.writeUInt16LE(method, 8);
    h.writeUInt16LE(DOS_TIME, 10);
    h.writeUInt16LE(DOS_DATE, 12);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(compressedSize, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(name.length, 26);
    h.writeUInt16LE(0, 28);
    this.push(h);
    this.push(name);
  }

  /** An entry copied as it was stored: its compressed bytes, checksum and sizes unchanged. */
  addRaw(entry: Pick<ZipEntry, "name" | "method" | "crc32" | "compressedSize" | "size" | "raw">): void {
    const name = Buffer.from(entry.name);
    const offset = this.offset;
    this.local(name, entry.method, UTF8_NAMES, entry.crc32, entry.compressedSize, entry.size);
    this.push(entry.raw);
    this.written.push({ name, method: entry.method, crc32: entry.crc32, compressedSize: entry.compressedSize, size: entry.size, offset, flags: UTF8_NAMES });
  }

  /** An entry from bytes or text, deflated (stored when deflate does not make it smaller). */
  add(name: string, data: Buffer | string): void {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    const deflated = zlib.deflateRawSync(bytes, { level: 6 });
    const stored = deflated.length >= bytes.length;
    this.addRaw({ name, method: stored ? 0 : 8, crc32: zlib.crc32(bytes), compressedSize: stored ? bytes.length : deflated.length, size: bytes.length, raw: stored ? bytes : deflated });
  }

  /**
   * An entry deflated as its pieces arrive (a sheet of 10,000 rows written row by row): only the
   * compressed bytes are kept. Sizes and checksum follow the data in a data descriptor.
   */
  async addStream(name: string, pieces: AsyncIterable<string> | Iterable<string>): Promise<void> {
    const nameBytes = Buffer.from(name);
    const offset = this.offset;
    const flags = UTF8_NAMES | DATA_DESCRIPTOR;
    this.local(nameBytes, 8, flags, 0, 0, 0);
    const deflate = zlib.createDeflateRaw({ level: 6 });
    let compressedSize = 0;
    deflate.on("data", (c: Buffer) => {
      compressedSize += c.length;
      this.push(c);
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.on("end", resolve);
      deflate.on("error", reject);
    });
    let crc = 0;
    let size = 0;
    let pending: string[] = [];
    let pendingChars = 0;
    const flush = async () => {
      if (!pending.length) return;
      const b = Buffer.from(pending.join(""));
      pending = [];
      pendingChars = 0;
      crc = zlib.crc32(b, crc);
      size += b.length;
      if (!deflate.write(b)) await new Promise((r) => deflate.once("drain", r));
    };
    for await (const piece of pieces) {
      pending.push(piece);
      pendingChars += piece.length;
      if (pendingChars >= 64 * 1024) await flush();
    }
    await flush();
    deflate.end();
    await ended;
    if (size > 0xfffffffe || this.offset > 0xfffffffe) throw new ZipError(`entry ${shownName(name)}: larger than a zip without ZIP64 holds`);
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(crc >>> 0, 4);
    d.writeUInt32LE(compressedSize, 8);
    d.writeUInt32LE(size, 12);
    this.push(d);
    this.written.push({ name: nameBytes, method: 8, crc32: crc >>> 0, compressedSize, size, offset, flags });
  }

  /** Writes the central directory; the archive is then `chunks`. */
  finish(): Buffer[] {
    if (this.written.length > 0xfffe) throw new ZipError("more entries than a zip without ZIP64 holds");
    const start = this.offset;
    for (const w of this.written) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(CENTRAL, 0);
      h.writeUInt16LE((UNIX << 8) | 20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(w.flags, 8);
      h.writeUInt16LE(w.method, 10);
      h.writeUInt16LE(DOS_TIME, 12);
      h.writeUInt16LE(DOS_DATE, 14);
      h.writeUInt32LE(w.crc32, 16);
      h.writeUInt32LE(w.compressedSize, 20);
      h.writeUInt32LE(w.size, 24);
      h.writeUInt16LE(w.name.length, 28);
      const folder = w.name[w.name.length - 1] === 0x2f;
      // Regular file 0644, folder 0755: what `unzip` gives a person.
      h.writeUInt32LE(((folder ? 0o040755 : 0o100644) << 16) >>> 0, 38);
      h.writeUInt32LE(w.offset, 42);
      this.push(h);
      this.push(w.name);
    }
    const size = this.offset - start;
    const e = Buffer.alloc(22);
    e.writeUInt32LE(EOCD, 0);
    e.writeUInt16LE(this.written.length, 8);
    e.writeUInt16LE(this.written.length, 10);
    e.writeUInt32LE(size, 12);
    e.writeUInt32LE(start, 16);
    this.push(e);
    return this.chunks;
  }
}
