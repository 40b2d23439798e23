import { promisify } from "node:util";
import zlib from "node:zlib";

const deflate = promisify(zlib.deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An RGB image from a binary PPM (P6, maxval 255), as pdftoppm writes it without a format option. */
export function parsePpm(ppm: Uint8Array): { width: number; height: number; pixels: Buffer } {
  const buf = Buffer.from(ppm.buffer, ppm.byteOffset, ppm.byteLength);
  // Header: "P6", width, height, maxval, separated by whitespace (comments start with #), then one whitespace byte.
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4 && i < buf.length) {
    const c = buf[i]!;
    if (c === 0x23) {
      while (i < buf.length && buf[i] !== 0x0a) i++;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else {
      const start = i;
      while (i < buf.length && ![0x20, 0x0a, 0x0d, 0x09].includes(buf[i]!)) i++;
      fields.push(buf.toString("latin1", start, i));
    }
  }
  const [magic, w, h, max] = fields;
  const width = Number(w);
  const height = Number(h);
  if (magic !== "P6" || max !== "255" || !(width > 0) || !(height > 0)) throw new Error(`not an 8-bit binary PPM (${fields.join(" ")})`);
  const pixels = buf.subarray(i + 1, i + 1 + width * height * 3);
  if (pixels.length !== width * height * 3) throw new Error("PPM pixel data is cut short");
  return { width, height, pixels };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A PNG (8-bit RGB) of a PPM. why not pdftoppm's own PNG: libpng's adaptive filtering spends
 * about four times the CPU of the rasterising itself on a page; rows without a filter, deflated on
 * libuv's thread pool, come out smaller for text pages and leave the worker's event loop free.
 */
export async function ppmToPng(ppm: Uint8Array): Promise<Buffer> {
  const { width, height, pixels } = parsePpm(ppm);
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height); // each row: filter type 0 (none), then its pixels
  for (let y = 0; y < height; y++) pixels.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", await deflate(raw, { level: 6 })), chunk("IEND", Buffer.alloc(0))]);
}
