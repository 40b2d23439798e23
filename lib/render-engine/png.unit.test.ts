import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { parsePpm, ppmToPng } from "./png";

const ppm = (header: string, pixels: number[]) => Buffer.concat([Buffer.from(header, "latin1"), Buffer.from(pixels)]);

/** The chunks of a PNG, each checked against its CRC. */
function chunks(png: Buffer) {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    expect(png.readUInt32BE(at + 8 + len)).toBe(zlib.crc32(data, zlib.crc32(Buffer.from(type, "latin1"))) >>> 0);
    out.push({ type, data });
    at += 12 + len;
  }
  return out;
}

describe("ppmToPng", () => {
  it("encodes an RGB PPM as a PNG with the same pixels", async () => {
    const pixels = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90];
    const png = await ppmToPng(ppm("P6\n# made by a test\n3 2\n255\n", pixels));
    const [ihdr, idat, iend, ...rest] = chunks(png);
    expect(rest).toEqual([]);
    expect(ihdr!.type).toBe("IHDR");
    expect([ihdr!.data.readUInt32BE(0), ihdr!.data.readUInt32BE(4), ...ihdr!.data.subarray(8)]).toEqual([3, 2, 8, 2, 0, 0, 0]);
    expect(idat!.type).toBe("IDAT");
    expect([...zlib.inflateSync(idat!.data)]).toEqual([0, ...pixels.slice(0, 9), 0, ...pixels.slice(9)]);
    expect(iend).toEqual({ type: "IEND", data: Buffer.alloc(0) });
  });

  it("refuses what is not an 8-bit binary PPM, or one cut short", () => {
    expect(() => parsePpm(ppm("P5\n1 1\n255\n", [0]))).toThrow(/PPM/);
    expect(() => parsePpm(ppm("P6\n1 1\n65535\n", [0, 0, 0, 0, 0, 0]))).toThrow(/PPM/);
    expect(() => parsePpm(ppm("P6\n2 2\n255\n", [1, 2, 3]))).toThrow(/cut short/);
  });
});
