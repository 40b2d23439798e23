import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { usageDays } from "@/lib/db/schema";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { startRenderHolds, type HeldRender, type RenderHolds } from "@/lib/testing/held-renders";
import { logLine } from "@/lib/testing/logs";
import { createRender, download } from "@/lib/testing/renders";

type Ended = { id: string; state: string; finishedAt: string; result?: { pageCount: number; outputBytes: number; downloadUrl?: string } };

const usageRows = (workspaceId: string) => db().select().from(usageDays).where(eq(usageDays.workspaceId, workspaceId)).orderBy(usageDays.day);

const threePages = ["one", "two", "three"].map((t) => `<section style="break-after:page">page ${t}</section>`).join("");

let holds: RenderHolds;
beforeAll(async () => {
  holds = await startRenderHolds();
});
afterAll(() => holds?.stop());

/** A render cancelled while it is processing (held: it cannot end first), and its held upload. */
async function cancelledRender(w: TestWorkspace): Promise<{ ended: Ended; held: HeldRender }> {
  const held = await holds.hold(w, { document: { html: "<p>cancel me</p>" } });
  const cancel = await api(`/v1/renders/${held.id}/cancel`, { key: w.key, method: "POST" });
  expect(cancel.status, cancel.text).toBe(200);
  expect(cancel.body.state).toBe("cancelled");
  return { ended: cancel.body, held };
}

describe("usage counting", () => {
  it("counts an image as one page, though its pageCount is the document's", async () => {
    const w = await createTestWorkspace();
    const png = await createRender(w.key, { document: { html: threePages }, format: "png", image: { page: 2 }, waitMs: 20_000 });
    expect(png.status, png.text).toBe(200);
    expect(png.body.result.pageCount).toBe(3);
    const [row] = await usageRows(w.id);
    expect(row).toMatchObject({ rendersSucceeded: 1, pages: 1, outputBytes: png.body.result.outputBytes });
  });

  it("counts every ended render once, on the UTC day it finished", async () => {
    const w = await createTestWorkspace();
    expect(await usageRows(w.id)).toEqual([]);

    const ended: Ended[] = [];
    const one = await createRender(w.key, { document: { html: "<p>one page</p>" }, waitMs: 20_000 });
    const three = await createRender(w.key, { document: { html: threePages }, test: true, waitMs: 20_000 });
    const failed = await createRender(w.key, { document: { html: "<p>one page</p>" }, pageRanges: "9", waitMs: 20_000 });
    for (const r of [one, three, failed]) expect(r.status, r.text).toBe(200);
    expect(one.body.result.pageCount).toBe(1);
    expect(three.body.result.pageCount).toBe(3);
    expect(failed.body).toMatchObject({ state: "failed", error: { diagnostic: "document_invalid" } });
    ended.push(one.body, three.body, failed.body);
    // The counted bytes are the bytes of the files.
    for (const r of [one, three]) expect((await download(r.body.result.downloadUrl)).bytes.byteLength).toBe(r.body.result.outputBytes);

    const cancelled = await cancelledRender(w);
    ended.push(cancelled.ended);
    for (const e of ended) expect(e.finishedAt, JSON.stringify(e)).toEqual(expect.any(String));

    // A cancel after the end is refused and counts nothing.
    for (const e of ended) {
      const late = expectError(await api(`/v1/renders/${e.id}/cancel`, { key: w.key, method: "POST" }), 409, "CONFLICT");
      expect(late.retryable).toBe(false);
    }

    // Expected rows: per UTC day of finishedAt (normally one day; two around midnight UTC).
    const expected = new Map<string, { rendersSucceeded: number; rendersFailed: number; rendersCancelled: number; pages: number; outputBytes: number; testRenders: number; testPages: number }>();
    for (const e of ended) {
      const day = new Date(e.finishedAt).toISOString().slice(0, 10);
      const d = expected.get(day) ?? { rendersSucceeded: 0, rendersFailed: 0, rendersCancelled: 0, pages: 0, outputBytes: 0, testRenders: 0, testPages: 0 };
      // Test renders count like the others, and again apart.
      if (e.id === three.body.id) d.testRenders++;
      if (e.state === "succeeded") {
        d.rendersSucceeded++;
        d.pages += e.result!.pageCount;
        d.outputBytes += e.result!.outputBytes;
        if (e.id === three.body.id) d.testPages += e.result!.pageCount;
      } else if (e.state === "failed") d.rendersFailed++;
      else d.rendersCancelled++;
      expected.set(day, d);
    }
    // Renders never count as string renders or HTML previews, which create none.
    const want = [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([day, d]) => ({ workspaceId: w.id, day, ...d, stringRenders: 0, htmlPreviews: 0 }));
    expect(await usageRows(w.id)).toEqual(want);

    // The totals the issue names: 2 succeeded (1 + 3 pages, test render included), 1 failed, 1 cancelled.
    const rows = await usageRows(w.id);
    const sum = (k: "rendersSucceeded" | "rendersFailed" | "rendersCancelled" | "pages" | "outputBytes" | "testRenders" | "testPages") => rows.reduce((n, r) => n + r[k], 0);
    expect(ended.filter((e) => e.state === "cancelled")).toHaveLength(1);
    expect(sum("rendersCancelled")).toBe(1);
    expect(sum("rendersFailed")).toBe(1);
    const succeeded = ended.filter((e) => e.state === "succeeded");
    expect(sum("rendersSucceeded")).toBe(succeeded.length);
    expect(sum("pages")).toBe(succeeded.reduce((n, e) => n + e.result!.pageCount, 0));
    expect(sum("outputBytes")).toBe(succeeded.reduce((n, e) => n + e.result!.outputBytes, 0));
    // The three-page test render, again apart.
    expect(three.body.test).toBe(true);
    expect(sum("testRenders")).toBe(1);
    expect(sum("testPages")).toBe(3);
    expect(succeeded).toHaveLength(2);
    expect(sum("pages")).toBe(4);
    expect(sum("outputBytes")).toBe(one.body.result.outputBytes + three.body.result.outputBytes);

    // Nothing counts again when the cancelled render's worker comes to the end of its attempt
    // later (its upload answers now): the worker logs that attempt's end, and the count stands.
    cancelled.held.release();
    const workerLog = path.join(inject("dataDir"), "worker.log");
    expect(await logLine(workerLog, (l) => l.renderId === cancelled.ended.id && /^render /.test(l.msg ?? ""), 20_000)).toMatchObject({ attempt: 1 });
    expect(await usageRows(w.id)).toEqual(want);
  });

  it("keeps workspaces apart", async () => {
    const [a, b] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const r = await createRender(a.key, { document: { html: "<p>only a</p>" }, waitMs: 20_000 });
    expect(r.body.state).toBe("succeeded");
    expect(await usageRows(b.id)).toEqual([]);
    expect(await usageRows(a.id)).toEqual([
      {
        workspaceId: a.id,
        day: r.body.finishedAt.slice(0, 10),
        rendersSucceeded: 1,
        rendersFailed: 0,
        rendersCancelled: 0,
        pages: 1,
        outputBytes: r.body.result.outputBytes,
        testRenders: 0,
        testPages: 0,
        stringRenders: 0,
        htmlPreviews: 0,
      },
    ]);
  });
});
