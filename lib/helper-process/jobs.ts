/**
 * What the helper processes (pool.ts) run: each job takes and returns values the IPC channel carries
 * (advanced serialization: byte arrays as bytes). Loaded in the helpers only (entry.mjs).
 */
import { joinPdfs } from "../batches/combine";
import { parseFont } from "../render-engine/font-parse";
import { postProcessPdf } from "../render-engine/pdf";
import { stampWithPdfLib } from "../render-engine/pdf-stamp";

export const jobs = {
  parseFont,
  postProcessPdf,
  stampWithPdfLib,
  joinPdfs,
};
