/**
 * What the helper processes (pool.ts) run: each job takes and returns values the IPC channel carries
 * (advanced serialization: byte arrays as bytes). Loaded in the helpers only (entry.mjs).
 *
 * Each job's module is loaded on its first call, or as the helper starts when its pool names the job
 * (HelperPool's `preload`). why: a helper runs one pool's jobs, and loading every job's modules
 * (pdf-lib, fontkit, the workbook and archive code) cost each helper about 0.7 s of CPU at start,
 * where a font helper needs only fontkit.
 */
import type { FillImage, WorkbookPlan } from "../workbooks/fill";

/** A job whose module is imported on first use; `load` imports it ahead (entry.mjs, for the pool's own jobs). */
function lazy<M, A extends unknown[], R>(load: () => Promise<M>, pick: (m: M) => (...args: A) => R) {
  return Object.assign(async (...args: A): Promise<Awaited<R>> => await pick(await load())(...args), { load });
}

const fonts = () => import("../render-engine/font-parse");
const pdf = () => import("../render-engine/pdf");
const stamp = () => import("../render-engine/pdf-stamp");
const combine = () => import("../batches/combine");
const workbooks = () => import("../workbooks/fill");
const archives = () => import("../archives/read");
const zip = () => import("../zip/zip");

export const jobs = {
  parseFont: lazy(fonts, (m) => m.parseFont),
  postProcessPdf: lazy(pdf, (m) => m.postProcessPdf),
  stampWithPdfLib: lazy(stamp, (m) => m.stampWithPdfLib),
  joinPdfs: lazy(combine, (m) => m.joinPdfs),
  planWorkbook: lazy(workbooks, (m) => m.planWorkbook),
  readArchive: lazy(archives, (m) => m.readArchive),
  /** An export's zip from its entries, in order ("path/" a folder): deflated here, off the web's event loop. */
  writeArchive: lazy(zip, ({ ZipWriter }) => (entries: [string, Uint8Array | string][]) => {
    const w = new ZipWriter();
    for (const [name, data] of entries) w.add(name, typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return Buffer.concat(w.finish());
  }),
  /** The filled workbook as one byte array: the IPC channel carries one value. */
  fillWorkbook: lazy(workbooks, (m) => async (bytes: Uint8Array, plan: WorkbookPlan, values: Record<string, string>, images: Record<string, FillImage>) => Buffer.concat(await m.fillWorkbook(bytes, plan, values, images))),
};
