import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { renders } from "@/lib/db/schema";
import { downloadLink } from "@/lib/files/links";
import { fileStore } from "@/lib/files/store";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { createRender } from "@/lib/testing/renders";

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A succeeded render of a fresh workspace, with its link's token and its stored file key. */
async function succeededRender(text = "download me") {
  const w = await createTestWorkspace();
  const res = await createRender(w.key, { document: { html: `<p>${text}</p>` }, waitMs: 20_000 });
  expect(res.status, res.text).toBe(200);
  expect(res.body.state).toBe("succeeded");
  const url = res.body.result.downloadUrl as string;
  const [row] = await db().select({ fileKey: renders.fileKey }).from(renders).where(eq(renders.id, res.body.id));
  expect(row?.fileKey).toEqual(expect.any(String));
  return { w, id: res.body.id as string, url, token: tokenOf(url), fileKey: row!.fileKey!, outputBytes: res.body.result.outputBytes as number };
}

function tokenOf(url: string): string {
  const m = /\/v1\/storage\/downloads\/([^/?#]+)$/.exec(url);
  if (!m) throw new Error(`not a download link: ${url}`);
  return m[1]!;
}

/** The link for a token on the server under test, requested without any credential. */
const fetchToken = (token: string) => api(`/v1/storage/downloads/${token}`);

/** The token with its character at `i` replaced by another base64url character. */
function changeChar(s: string, i: number): string {
  const c = s[i]!;
  const other = base64url[(base64url.indexOf(c) + 17) % 64]!;
  return s.slice(0, i) + other + s.slice(i + 1);
}

describe("GET /v1/storage/downloads/{token}", () => {
  it("serves the file without any credential, with the render's name and no caching", async () => {
    const r = await succeededRender();
    expect(r.url.startsWith(`${inject("baseUrl")}/v1/storage/downloads/`)).toBe(true);
    const res = await fetch(r.url); // no x-api-key, no cookie
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain(`${r.id}.pdf`);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.byteLength).toBe(r.outputBytes);
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    // The same link works more than once within its five minutes, and a caller's request id is kept.
    const again = await fetch(r.url, { headers: { "x-request-id": "trace.download-1" } });
    expect(again.status).toBe(200);
    expect(again.headers.get("x-request-id")).toBe("trace.download-1");
  });

  it("answers 403 FORBIDDEN for a link altered in its signature or its payload", async () => {
    const r = await succeededRender();
    const [payload, mac] = r.token.split(".") as [string, string];
    const cases = [
      `${payload}.${changeChar(mac, 10)}`,
      `${payload}.${changeChar(mac, 0)}`,
      `${changeChar(payload, Math.floor(payload.length / 2))}.${mac}`,
      `${changeChar(payload, 3)}.${mac}`,
      // A payload re-made with a later expiry keeps the old signature.
      (() => {
        const grant = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [string, string, string, number];
        grant[3] += 3_600_000;
        return `${Buffer.from(JSON.stringify(grant)).toString("base64url")}.${mac}`;
      })(),
      `${payload}.${mac}x`,
      `${payload}.${mac}.${mac}`,
      `${payload}`,
    ];
    for (const token of cases) {
      const e = expectError(await fetchToken(token), 403, "FORBIDDEN");
      expect(e.retryable).toBe(false);
    }
    expect((await fetchToken(r.token)).status).toBe(200); // the unaltered link still works
  });

  it("answers 403 FORBIDDEN for an expired link, while one signed the same way but current works", async () => {
    const r = await succeededRender();
    const grant = { key: r.fileKey, contentType: "application/pdf", filename: `${r.id}.pdf` };
    // why: the test process derives the links key from the same DATA_DIR/secret-key as the server.
    const current = downloadLink(grant);
    const current200 = await fetchToken(tokenOf(current.url));
    expect(current200.status, current200.text.slice(0, 200)).toBe(200);
    const fourMinutesOld = downloadLink(grant, Date.now() - 4 * 60_000);
    expect((await fetchToken(tokenOf(fourMinutesOld.url))).status).toBe(200);

    const expired = downloadLink(grant, Date.now() - 6 * 60_000);
    expect(Date.parse(expired.expiresAt)).toBeLessThan(Date.now());
    const e = expectError(await fetchToken(tokenOf(expired.url)), 403, "FORBIDDEN");
    expect(e.message).toMatch(/expired/i);
  });

  it.each([
    ["a word", "garbage"],
    ["two short parts", "a.b"],
    ["three parts", "a.b.c"],
    ["dots only", "...."],
    ["2,000 characters", "x".repeat(2000)],
    ["an empty payload with a signature-sized part", `e30.${"A".repeat(43)}`],
  ])("answers 403 FORBIDDEN for a garbage token: %s", async (_name, token) => {
    expectError(await fetchToken(encodeURIComponent(token)), 403, "FORBIDDEN");
  });

  it.each([
    ["a lone byte that is no UTF-8", "%E0"],
    ["a percent sign alone", "%"],
    ["percent and no hex", "%zz"],
    ["a cut-off sequence after a valid part", "abc%E0%A4"],
    ["an overlong encoding", "%C0%AF"],
  ])("answers 403 FORBIDDEN, not 500, for percent-encoding that does not decode: %s", async (_name, token) => {
    expectError(await fetchToken(token), 403, "FORBIDDEN");
  });

  it.each([
    ["a small file, sent whole", 100_000],
    ["a file over 1 MiB, streamed", 3 * 1024 * 1024 + 7],
  ])("serves every byte of %s, with its length", async (_name, size) => {
    const r = await succeededRender("replaced");
    const bytes = randomBytes(size);
    await fileStore().put(r.fileKey, bytes, "application/pdf");
    const res = await fetch(r.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(size));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    // The authenticated route serves the same bytes.
    const file = await fetch(`${inject("baseUrl")}/v1/renders/${r.id}/file`, { headers: { "x-api-key": r.w.key } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("answers 404 NOT_FOUND for a valid link whose file is gone", async () => {
    const r = await succeededRender("soon gone");
    await fileStore().delete([r.fileKey]);
    expectError(await fetchToken(r.token), 404, "NOT_FOUND");
  });
});
