import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { logLine, logLines } from "@/lib/testing/logs";
import { createRender } from "@/lib/testing/renders";

// The shared worker writes its log to <dataDir>/worker.log (lib/testing/global-setup.ts). Warnings
// for time-outs and crashes: limits.test.ts; for leases taken back: worker-crash.test.ts.

const workerLog = () => path.join(inject("dataDir"), "worker.log");
const newRequestId = () => `req-log-${randomBytes(6).toString("hex")}`;

describe("the worker's log", () => {
  it("says how each render ended in one line, with the request id of its creation and the time of each phase", async () => {
    const w = await createTestWorkspace();
    const requestId = newRequestId();
    const res = await createRender(w.key, { document: { html: "<p>logged</p>" }, waitMs: 20_000 }, { headers: { "x-request-id": requestId } });
    expect(res.headers.get("x-request-id")).toBe(requestId);
    expect(res.body.state, res.text).toBe("succeeded");

    const line = await logLine(workerLog(), (l) => l.renderId === res.body.id);
    expect(line).toMatchObject({ level: 30, msg: "render ended", process: "worker", workspaceId: w.id, requestId, attempt: 1, state: "succeeded" });
    expect(line).not.toHaveProperty("diagnostic");
    expect(line.ms).toEqual({ queued: expect.any(Number), render: expect.any(Number), store: expect.any(Number), end: expect.any(Number) });
    for (const phase of Object.values(line.ms!)) expect(phase).toBeGreaterThanOrEqual(0);
    expect(line.ms!.render).toBeGreaterThan(0);
    expect(logLines(workerLog()).filter((l) => l.renderId === res.body.id)).toHaveLength(1);
  });

  it("names the diagnostic of a failed render", async () => {
    const w = await createTestWorkspace();
    const requestId = newRequestId();
    const res = await createRender(w.key, { document: { html: "<p>one page</p>" }, pageRanges: "9", waitMs: 20_000 }, { headers: { "x-request-id": requestId } });
    expect(res.body.state, res.text).toBe("failed");
    const line = await logLine(workerLog(), (l) => l.renderId === res.body.id);
    // A document's own failure is the caller's business: info, not a warning.
    expect(line).toMatchObject({ level: 30, msg: "render ended", requestId, state: "failed", diagnostic: "document_invalid", ms: { render: expect.any(Number) } });
    expect(line.ms).not.toHaveProperty("store");
  });

  it("never holds the document or the data", async () => {
    const w = await createTestWorkspace();
    const secret = `confidential-${randomBytes(8).toString("hex")}`;
    const document = { html: `<p>${secret}</p>`, header: `<span>${secret}</span>`, settings: { title: secret } };
    const ok = await createRender(w.key, { document, waitMs: 20_000 });
    const failed = await createRender(w.key, { document, pageRanges: "9", waitMs: 20_000 });
    for (const r of [ok, failed]) await logLine(workerLog(), (l) => l.renderId === r.body.id);
    expect(fs.readFileSync(workerLog(), "utf8")).not.toContain(secret);
  });
});
