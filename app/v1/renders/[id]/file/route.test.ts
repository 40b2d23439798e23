import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestWorkspace, requestFrom } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { pdfText } from "@/lib/testing/pdf";
import { startRenderHolds, type RenderHolds } from "@/lib/testing/held-renders";
import { createRender, download, waitForState, heldRender } from "@/lib/testing/renders";
import { securityCases } from "@/lib/testing/security-cases";

let holds: RenderHolds;
beforeAll(async () => {
  holds = await startRenderHolds();
});
afterAll(() => holds?.stop());

/** GET /v1/renders/{id}/file as raw bytes (api() would read a PDF as text). */
async function getFile(key: string | undefined, id: string) {
  const res = await fetch(`${inject("baseUrl")}/v1/renders/${id}/file`, { headers: key ? { "x-api-key": key } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const stateOf = async (key: string, id: string) => (await api(`/v1/renders/${id}`, { key })).body.state as string;


describe("GET /v1/renders/{id}/file", () => {
  it("streams the PDF of a succeeded render: same bytes as its download link, named after the render", async () => {
    const w = await createTestWorkspace();
    const created = await createRender(w.key, { document: { html: "<h1>File by id</h1>" }, waitMs: 20_000 });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as string;

    const file = await getFile(w.key, id);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toContain(`${id}.pdf`);
    expect(file.headers.get("cache-control")).toContain("no-store");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.bytes.byteLength).toBe(created.body.result.outputBytes);
    expect(pdfText(file.bytes).replace(/\s+/g, "")).toContain("Filebyid");

    const viaLink = await download(created.body.result.downloadUrl);
    expect(viaLink.status).toBe(200);
    expect(Buffer.from(file.bytes).equals(Buffer.from(viaLink.bytes))).toBe(true);
  });

  it("answers with content-length, the file's size, with and without accept-encoding (item 9)", async () => {
    const w = await createTestWorkspace();
    const created = await createRender(w.key, { document: { html: "<h1>Length</h1>" }, waitMs: 20_000 });
    expect(created.status, created.text).toBe(200);
    const size = String(created.body.result.outputBytes);
    for (const headers of [{}, { "accept-encoding": "gzip, deflate, br" }] as Record<string, string>[]) {
      const res = await requestFrom("127.0.0.1", `${inject("baseUrl")}/v1/renders/${created.body.id}/file`, { headers: { "x-api-key": w.key, ...headers } });
      expect(res.status).toBe(200);
      expect(res.headers["x-folio-content-length"]).toBeUndefined();
      expect(Buffer.byteLength(res.body, "latin1")).toBeGreaterThan(0);
      expect(res.headers["content-length"], JSON.stringify(headers)).toBe(size);
      expect(res.headers["transfer-encoding"]).toBeUndefined();
    }
  });

  it("answers 409 CONFLICT with retryable true while the render is processing, and the file once it succeeded", async () => {
    const w = await createTestWorkspace();
    const held = await holds.hold(w, { document: { html: "<p>not yet</p>" } });
    expect(await stateOf(w.key, held.id)).toBe("processing");
    const e = expectError(await api(`/v1/renders/${held.id}/file`, { key: w.key }), 409, "CONFLICT");
    expect(e.retryable).toBe(true);
    expect(e.message).toContain(held.id);
    expect(await stateOf(w.key, held.id)).toBe("processing"); // still held: the 409 was for an active render

    held.release();
    expect((await waitForState(w.key, held.id)).state).toBe("succeeded");
    const file = await getFile(w.key, held.id);
    expect(file.status).toBe(200);
    expect(pdfText(file.bytes).replace(/\s+/g, "")).toContain("notyet");
  });

  it("answers 409 CONFLICT, not retryable, for a failed and for a cancelled render", async () => {
    const w = await createTestWorkspace();
    // A page range beyond the one-page document fails the render with document_invalid.
    const failed = await createRender(w.key, { document: { html: "<p>one page</p>" }, pageRanges: "5", waitMs: 20_000 });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.state).toBe("failed");
    const ef = expectError(await api(`/v1/renders/${failed.body.id}/file`, { key: w.key }), 409, "CONFLICT");
    expect(ef.retryable).toBe(false);

    const toCancel = await holds.hold(w, { document: { html: "<p>cancel me</p>" } });
    expect((await api(`/v1/renders/${toCancel.id}/cancel`, { method: "POST", key: w.key })).status).toBe(200);
    const ec = expectError(await api(`/v1/renders/${toCancel.id}/file`, { key: w.key }), 409, "CONFLICT");
    expect(ec.retryable).toBe(false);
  });

  it("answers 404 for an unknown id and for another workspace's succeeded render", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await createRender(other.key, { document: { html: "<p>theirs</p>" }, waitMs: 20_000 });
    expect(theirs.body.state).toBe("succeeded");
    expectError(await api(`/v1/renders/rnd_doesnotexist/file`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/renders/${theirs.body.id}/file`, { key: w.key }), 404, "NOT_FOUND");
    expect((await getFile(other.key, theirs.body.id)).status).toBe(200);
  });

  it("answers 403 naming render:read for a key with only render:create, even for a succeeded render", async () => {
    const w = await createTestWorkspace();
    const created = await createRender(w.key, { document: { html: "<p>scoped</p>" }, waitMs: 20_000 });
    expect(created.body.state).toBe("succeeded");
    const k = await w.newKey(["render:create", "render:cancel"]);
    const e = expectError(await api(`/v1/renders/${created.body.id}/file`, { key: k.secret }), 403, "FORBIDDEN");
    expect(e.message).toContain("render:read");
  });

  it("answers the console's session of the workspace (the render page's Download), and 404 to another workspace's session", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const created = await createRender(w.key, { document: { html: "<h1>From the console</h1>" }, format: "png", waitMs: 20_000 });
    expect(created.status, created.text).toBe(200);
    const url = `${inject("baseUrl")}/v1/renders/${created.body.id}/file`;
    const { cookie } = await w.signIn("content_editor"); // the narrowest role that reads renders
    const res = await fetch(url, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect((await res.arrayBuffer()).byteLength).toBe(created.body.result.outputBytes);
    const theirs = await other.signIn("owner");
    expectError(await api(`/v1/renders/${created.body.id}/file`, { cookie: theirs.cookie }), 404, "NOT_FOUND");
  });

  describe("security", () => {
    securityCases({
      scope: "render:read",
      request: async (w, key) => api(`/v1/renders/${await heldRender(w.id)}/file`, { key }),
      crossWorkspace: async (w, other) => api(`/v1/renders/${await heldRender(other.id)}/file`, { key: w.key }),
    });
  });
});
