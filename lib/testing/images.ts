import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { PDFDocument, rgb } from "pdf-lib";
import { rasterize } from "../render-engine/raster";

// Images and fonts for tests, made here so their sizes and damage are known.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk with its length and checksum. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit RGB PNG of one colour; `pixels` replaces the compressed image data (a damaged image whose structure is sound). */
export function png(width: number, height: number, colour: [number, number, number] = [0x20, 0x60, 0xc0], pixels?: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.concat(Array.from({ length: width }, () => Buffer.from(colour)))]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT", pixels ?? zlib.deflateSync(raw)), pngChunk("IEND", Buffer.alloc(0))]);
}

/** A JPEG of one colour, drawn by pdf-lib and rasterised by poppler. */
export async function jpeg(width: number, height: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([width * 0.75, height * 0.75]);
  page.drawRectangle({ x: 0, y: 0, width: width * 0.75, height: height * 0.75, color: rgb(0.9, 0.3, 0.1) });
  return rasterize(await doc.save(), "jpeg", { width, height }, AbortSignal.timeout(20_000));
}

/** A font of the machine (DejaVu Sans) and the two web fonts the tests' packages ship. */
export const fontFiles = {
  dejaVuTtf: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  interWoff2: path.join(process.cwd(), "node_modules/@fontsource/inter/files/inter-latin-400-normal.woff2"),
  interWoff: path.join(process.cwd(), "node_modules/@fontsource/inter/files/inter-latin-400-normal.woff"),
  merriweatherWoff2: path.join(process.cwd(), "node_modules/@fontsource/merriweather/files/merriweather-latin-400-normal.woff2"),
};

export const readFont = (f: keyof typeof fontFiles) => fs.readFileSync(fontFiles[f]);
