/**
 * What the helper processes (pool.ts) run: each job takes and returns values the IPC channel carries
 * (advanced serialization: byte arrays as bytes). Loaded in the helpers only (entry.mjs).
 */
import { joinPdfs } from "../batches/combine";
import { parseFont } from "../render-engine/font-parse";
import { postProcessPdf } from "../render-engine/pdf";
import { stampWithPdfLib } from "../render-engine/pdf-stamp";
import { fillWorkbook, planWorkbook, type FillImage, type WorkbookPlan } from "../workbooks/fill";
import { readArchive } from "../archives/read";
import { ZipWriter } from "../zip/zip";

export const jobs = {
  parseFont,
  postProcessPdf,
  stampWithPdfLib,
  joinPdfs,
  planWorkbook,
  /** The filled workbook as one byte array: the IPC channel carries one value. */
  readArchive,
  /** An export's zip from its entries, in order ("path/" a folder): deflated here, off the web's event loop. */
  writeArchive: (entries: [string, Uint8Array | string][]) => {
    const w = new ZipWriter();
    for (const [name, data] of entries) w.add(name, typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return Buffer.concat(w.finish());
  },
  fillWorkbook: async (bytes: Uint8Array, plan: WorkbookPlan, values: Record<string, string>, images: Record<string, FillImage>) => Buffer.concat(await fillWorkbook(bytes, plan, values, images)),
};
