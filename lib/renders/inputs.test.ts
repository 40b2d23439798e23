import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { renderInputs } from "@/lib/db/schema";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { createRender, download, slotHoldingDocument } from "@/lib/testing/renders";

// A render's input (the caller's document and data) is kept only until the render ends; the render
// record keeps everything the API shows. Ends by a worker's lease running out: worker-crash.test.ts.

type Rendered = { id: string; state: string; result?: { downloadUrl?: string; expiresAt?: string } };

const inputRows = (id: string) => db().select().from(renderInputs).where(eq(renderInputs.renderId, id));

/** GET answers the record the render ended with; only the download link is new on every read. */
async function expectSameRecord(key: string, ended: Rendered) {
  const got = await api(`/v1/renders/${ended.id}`, { key });
  expect(got.status, got.text).toBe(200);
  const link = ended.result?.downloadUrl ? { result: { ...ended.result, downloadUrl: expect.any(String), expiresAt: expect.any(String) } } : {};
  expect(got.body).toEqual({ ...ended, ...link });
  return got.body as Rendered;
}

describe("a render's input", () => {
  it("is deleted when the render succeeds; the record and the file stay", async () => {
    const w = await createTestWorkspace();
    const res = await createRender(w.key, { document: { html: "<p>Invoice for Ada</p>" }, waitMs: 20_000 });
    expect(res.body.state, res.text).toBe("succeeded");
    expect(await inputRows(res.body.id)).toEqual([]);
    const got = await expectSameRecord(w.key, res.body);
    expect((await download(got.result!.downloadUrl!)).status).toBe(200);
  });

  it("is deleted when the render fails", async () => {
    const w = await createTestWorkspace();
    const res = await createRender(w.key, { document: { html: "<p>one page</p>" }, pageRanges: "9", waitMs: 20_000 });
    expect(res.body).toMatchObject({ state: "failed", error: { diagnostic: "document_invalid" } });
    expect(await inputRows(res.body.id)).toEqual([]);
    await expectSameRecord(w.key, res.body);
  });

  it("is deleted by the cancel", async () => {
    const w = await createTestWorkspace();
    const res = await createRender(w.key, { document: slotHoldingDocument("cancelled"), waitMs: 0 });
    expect(res.status, res.text).toBe(202);
    expect(await inputRows(res.body.id)).toHaveLength(1);
    const cancelled = await api(`/v1/renders/${res.body.id}/cancel`, { key: w.key, method: "POST" });
    expect(cancelled.body.state, cancelled.text).toBe("cancelled");
    expect(await inputRows(res.body.id)).toEqual([]);
    await expectSameRecord(w.key, cancelled.body);
  });
});
