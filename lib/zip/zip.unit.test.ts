import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { inflate, readZip, ZipError, ZipWriter, type ZipLimits } from "./zip";

const limits: ZipLimits = { maxEntries: 10_000, maxTotalBytes: 20_000_000, maxRatio: 200, maxNameBytes: 1024, caseInsensitive: true };

function zip(files: [string, Buffer | string][]): Buffer {
  const w = new ZipWriter();
  for (const [name, data] of files) w.add(name, data);
  return Buffer.concat(w.finish());
}

/** The offset of the n-th central directory header. */
function centralAt(buf: Buffer, n: number): number {
  let at = buf.readUInt32LE(buf.length - 22 + 16);
  for (let i = 0; i < n; i++) at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  return at;
}

function readAll(buf: Buffer, l: ZipLimits = limits): Map<string, string> {
  const budget = { left: l.maxTotalBytes };
  return new Map(readZip(buf, l).map((e) => [e.name, inflate(e, l, budget).toString()]));
}

const refusal = (buf: Buffer, l: ZipLimits = limits) => {
  try {
    readAll(buf, l);
  } catch (e) {
    expect(e).toBeInstanceOf(ZipError);
    return (e as Error).message;
  }
  throw new Error("the archive was read");
};

describe("zip archives", () => {
  it("reads back what it wrote: stored, deflated, streamed and copied entries, with unzip's view of them", async () => {
    const w = new ZipWriter();
    w.add("readme.txt", "short");
    w.add("folder/", "");
    w.add("folder/big.xml", "<row/>".repeat(10_000));
    await w.addStream("folder/streamed.xml", (function* () {
      for (let i = 0; i < 5000; i++) yield `<row r="${i + 1}"><c><v>${i}</v></c></row>`;
    })());
    const first = Buffer.concat(w.finish());
    const copy = new ZipWriter();
    for (const e of readZip(first, limits)) copy.addRaw(e);
    const second = Buffer.concat(copy.finish());
    const files = readAll(second);
    expect([...files.keys()]).toEqual(["readme.txt", "folder/", "folder/big.xml", "folder/streamed.xml"]);
    expect(files.get("readme.txt")).toBe("short");
    expect(files.get("folder/big.xml")).toBe("<row/>".repeat(10_000));
    expect(files.get("folder/streamed.xml")!.split("<row ").length - 1).toBe(5000);
    expect(files.get("folder/streamed.xml")!.endsWith(`<row r="5000"><c><v>4999</v></c></row>`)).toBe(true);
    // Copied entries keep their stored bytes.
    expect(readZip(second, limits)[2]!.raw.equals(readZip(first, limits)[2]!.raw)).toBe(true);
  });

  it.each([
    ["../evil.txt", /"\.\." segment/],
    ["a/../../evil.txt", /"\.\." segment/],
    ["/etc/passwd", /absolute path/],
    ["C:/Windows/evil.txt", /absolute path/],
    ["a\\..\\evil.txt", /backslash/],
    ["a//b.txt", /empty folder name/],
    ["bad\u0000name.txt", /control character/],
    [`${"x".repeat(256)}.txt`, /longer than 255 bytes/],
    [`${"abcdefgh/".repeat(120)}x.txt`, /longer than 1024 bytes/],
  ])("refuses the name %j", (name, message) => {
    expect(refusal(zip([["ok.txt", "fine"], [name, "x"]]))).toMatch(message);
  });

  it("refuses duplicate names, exact or differing in letter case only", () => {
    expect(refusal(zip([["a.txt", "1"], ["a.txt", "2"]]))).toMatch(/"a.txt": a duplicate name/);
    expect(refusal(zip([["Read.md", "1"], ["read.md", "2"]]))).toMatch(/duplicate name \(names are compared ignoring letter case\)/);
    expect(readAll(zip([["Read.md", "1"], ["read.md", "2"]]), { ...limits, caseInsensitive: false }).size).toBe(2);
  });

  it("refuses a symbolic link", () => {
    const buf = zip([["link", "/etc/passwd"]]);
    buf.writeUInt32LE((0o120777 << 16) >>> 0, centralAt(buf, 0) + 38);
    expect(refusal(buf)).toMatch(/"link": a symbolic link/);
  });

  it("refuses more entries than allowed before reading any", () => {
    const files: [string, string][] = Array.from({ length: 10_001 }, (_, i) => [`f${i}.txt`, ""]);
    expect(refusal(zip(files))).toBe("10,001 entries; an archive holds at most 10,000");
    expect(readAll(zip(files.slice(0, 10_000))).size).toBe(10_000);
  });

  it("refuses a bomb by its ratio, and more than the total once decoded", () => {
    const zeros = Buffer.alloc(15_000_000);
    expect(refusal(zip([["zeros.bin", zeros]]))).toMatch(/"zeros.bin": decodes to more than 200 times its compressed size/);
    const text = Buffer.from(Array.from({ length: 700_000 }, (_, i) => `${(i * 7919) % 100_003},`).join(""));
    const many: [string, Buffer][] = Array.from({ length: 5 }, (_, i) => [`part${i}.csv`, text]);
    expect(text.length * 5).toBeGreaterThan(20_000_000);
    expect(refusal(zip(many))).toBe("more than 20,000,000 bytes once decoded");
  });

  it("ends a lying entry at its declared size while inflating (zlib stops there)", () => {
    const buf = zip([["small.txt", "a".repeat(5_000_000)]]);
    buf.writeUInt32LE(1000, centralAt(buf, 0) + 24);
    expect(refusal(Buffer.from(buf))).toMatch(/"small.txt": its local header disagrees/);
    buf.writeUInt32LE(1000, 22); // the local header lies the same way
    expect(refusal(buf)).toMatch(/"small.txt": decodes to more than it declares/);
  });

  it("refuses a damaged checksum, a local header that disagrees, encryption and other methods", () => {
    const crc = zip([["a.txt", "hello hello hello hello"]]);
    crc.writeUInt32LE((crc.readUInt32LE(centralAt(crc, 0) + 16) ^ 1) >>> 0, centralAt(crc, 0) + 16);
    crc.writeUInt32LE(crc.readUInt32LE(centralAt(crc, 0) + 16), 14);
    expect(refusal(crc)).toMatch(/checksum does not match/);
    const local = zip([["a.txt", "hello"]]);
    local.write("b", 30);
    expect(refusal(local)).toMatch(/local header disagrees/);
    const enc = zip([["a.txt", "hello"]]);
    enc.writeUInt16LE(1, centralAt(enc, 0) + 8);
    expect(refusal(enc)).toMatch(/encrypted/);
    const bz = zip([["a.txt", "hello"]]);
    bz.writeUInt16LE(12, centralAt(bz, 0) + 10);
    expect(refusal(bz)).toMatch(/compression method 12/);
    expect(refusal(Buffer.from("PK not really"))).toMatch(/not a zip archive/);
    expect(zlib.crc32("x")).toBeTypeOf("number");
  });
});
