/**
 * The combined batch PDF on the real web server: joined once in a helper process, off the event
 * loop that answers every other request, and kept for the next download of the same items.
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { renders } from "@/lib/db/schema";
import { fileStore } from "@/lib/files/store";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { logLines } from "@/lib/testing/logs";
import type { BatchSummary } from ".";

/** A PDF of `pages` pages of text: many objects and content, as pdf-lib then reads and rewrites. */
async function bulkyPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let l = 0; l < 60; l++) page.drawText(`Page ${p} line ${l}: the quick brown fox jumps over the lazy dog`, { x: 40, y: 800 - l * 12, size: 9, font });
  }
  return doc.save({ useObjectStreams: false });
}

async function waitForBatch(key: string, id: string): Promise<BatchSummary> {
  let last: BatchSummary | undefined;
  await expect
    .poll(async () => {
      last = (await api<BatchSummary>(`/v1/renders/batch/${id}`, { key })).body;
      return last.counts.queued + last.counts.processing;
    }, { timeout: 60_000, interval: 200 })
    .toBe(0);
  return last!;
}

async function get(url: string, key?: string) {
  const t = performance.now();
  const res = await fetch(url, { headers: key ? { "x-api-key": key } : {} });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, ms: performance.now() - t, at: t };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The shared web server's log (lib/testing/global-setup.ts starts it with its log under DATA_DIR). */
const webLog = () => path.join(inject("dataDir"), `web-${new URL(inject("baseUrl")).port}.log`);

describe("GET /v1/renders/batch/{id}/pdf", () => {
  it("joins off the event loop (other requests keep their latency), once for simultaneous downloads, and answers the kept PDF again", { timeout: 180_000 }, async () => {
    const base = inject("baseUrl");
    expect(fs.existsSync(webLog()), webLog()).toBe(true);
    const w = await createTestWorkspace();
    const created = await api<BatchSummary>("/v1/renders/batch", { key: w.key, body: { items: Array.from({ length: 8 }, (_, i) => ({ document: { html: `<p>item ${i}</p>` } })) } });
    expect(created.status, created.text).toBe(202);
    const batch = await waitForBatch(w.key, created.body.id);
    expect(batch.counts.succeeded).toBe(8);

    // Each item's stored file becomes a bulky PDF (as a long report would be), so the join takes a while.
    const bulky = await bulkyPdf(300);
    const items = await db().select({ id: renders.id, fileKey: renders.fileKey }).from(renders).where(eq(renders.batchId, batch.id));
    for (const r of items) {
      await fileStore().put(r.fileKey!, bulky, "application/pdf");
      await db().update(renders).set({ outputBytes: bulky.byteLength }).where(eq(renders.id, r.id));
    }

    // Another request's latency alone, then while three simultaneous first downloads are joined.
    const healthz = () => get(`${base}/healthz`);
    const alone: number[] = [];
    for (let i = 0; i < 10; i++) alone.push((await healthz()).ms);
    const url = `${base}/v1/renders/batch/${batch.id}/pdf`;
    const started = performance.now();
    const downloads = Promise.all([get(url, w.key), get(url, w.key), get(url, w.key)]);
    let done = false;
    void downloads.finally(() => (done = true));
    const during: number[] = [];
    while (!done) {
      const h = await healthz();
      expect(h.status).toBe(200);
      if (!done) during.push(h.ms);
      await new Promise((r) => setTimeout(r, 20));
    }
    const answers = await downloads;
    const joinMs = performance.now() - started;
    console.log(`combined PDF of 8 x ${bulky.byteLength} B (2,400 pages): first downloads ${Math.round(joinMs)} ms; /healthz alone median ${median(alone).toFixed(1)} ms, max ${Math.max(...alone).toFixed(1)} ms; during the join (${during.length} requests) median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms`);

    for (const a of answers) expect(a.status, Buffer.from(a.bytes.subarray(0, 300)).toString()).toBe(200);
    expect(Buffer.compare(answers[0]!.bytes, answers[1]!.bytes)).toBe(0);
    expect(Buffer.compare(answers[0]!.bytes, answers[2]!.bytes)).toBe(0);
    expect((await PDFDocument.load(answers[0]!.bytes)).getPageCount()).toBe(2400);
    // The join is long enough to measure against, and no request waited for it: joined on the event
    // loop, a request arriving meanwhile waits for most of the join.
    expect(during.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...during)).toBeLessThan(joinMs / 2);

    // Joined once for the three.
    const joined = () => logLines(webLog()).filter((l) => l.msg === "batch PDF joined" && (l as { batchId?: string }).batchId === batch.id);
    await expect.poll(() => joined().length).toBe(1);
    expect(joined()[0]).toMatchObject({ items: 8, bytes: answers[0]!.bytes.byteLength });

    // The next download is the kept PDF: the items' files are not read again (gone now), nor joined.
    await fileStore().delete(items.map((r) => r.fileKey!));
    const again = await get(url, w.key);
    expect(again.status).toBe(200);
    expect(Buffer.compare(again.bytes, answers[0]!.bytes)).toBe(0);
    expect(joined().length).toBe(1);
  });

  it("answers 400 UNSUPPORTED_FEATURE naming an item the join helper cannot read", { timeout: 90_000 }, async () => {
    const w = await createTestWorkspace();
    const created = await api<BatchSummary>("/v1/renders/batch", { key: w.key, body: { items: [0, 1].map((i) => ({ document: { html: `<p>item ${i}</p>` } })) } });
    expect(created.status, created.text).toBe(202);
    const batch = await waitForBatch(w.key, created.body.id);
    const second = batch.items[1]!;
    const [row] = await db().select({ fileKey: renders.fileKey }).from(renders).where(eq(renders.id, second.id));
    await fileStore().put(row!.fileKey!, Buffer.from("not a PDF at all"), "application/pdf");
    const res = await api(`/v1/renders/batch/${batch.id}/pdf`, { key: w.key });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: "UNSUPPORTED_FEATURE" });
    expect(res.body.error.message).toMatch(new RegExp(`^Batch item 1: render ${second.id} cannot be joined \\(password protected, signed or unreadable\\): Failed to parse PDF`));
  });
});
