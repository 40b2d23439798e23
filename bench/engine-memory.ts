/**
 * Memory of the render engine alone: 1,000 invoices through BrowserPool + renderDocument, printing
 * the worker-side heap after a full GC every 100 renders.
 *   node --expose-gc --import tsx bench/engine-memory.ts
 */
process.env.DATA_DIR = "/tmp/folio-mem"; process.env.LOG_LEVEL = "warn";
import { invoiceHtml } from "./documents";
async function main() {
  const { BrowserPool } = await import("../lib/render-engine/browser");
  const { renderDocument } = await import("../lib/render-engine/render");
  const { resolveSettings } = await import("../lib/documents/page-settings");
  const pool = new BrowserPool(2);
  await pool.start();
  const html = invoiceHtml(3);
  let n = 0;
  const one = async () => {
    await renderDocument(pool, { renderId: `rnd_x${n}`, attempt: 1, html, settings: resolveSettings(undefined), format: "pdf", test: false }, new AbortController().signal);
    n++;
  };
  for (let round = 0; round < 10; round++) {
    await Promise.all(
      [0, 1].map(async () => {
        for (let i = 0; i < 50; i++) await one();
      }),
    );
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    console.log(`after ${(round + 1) * 100} renders: rss ${(m.rss / 1e6).toFixed(0)} MB, heap used ${(m.heapUsed / 1e6).toFixed(1)} MB`);
  }
  await pool.close();
  process.exit(0);
}
main();
