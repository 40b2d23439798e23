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
  // For lib/offload/pool.test.ts: a job that spins for `ms`, one that allocates until the heap
  // limit ends it, and the names of the helper's environment variables.
  spin: (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
    return ms;
  },
  exhaust: () => {
    const hold: number[][] = [];
    for (;;) hold.push(new Array(1_000_000).fill(1.5));
  },
  environment: () => Object.keys(process.env).sort(),
  fail: (message: string) => {
    throw new RangeError(message);
  },
};
