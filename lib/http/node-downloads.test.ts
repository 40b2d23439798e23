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

/**
 * Every text a token could be read as: the token itself, and each of its parts (split at any
 * character outside base64url) decoded as base64 and base64url from each of the four offsets of a
 * base64 group, as UTF-8 and as Latin-1.
 */
function readings(token: string): string[] {
  const out = [token];
  for (const part of [token, ...token.split(/[^A-Za-z0-9_-]+/)]) {
    for (let offset = 0; offset < 4; offset++) {
      for (const encoding of ["base64", "base64url"] as const) {
        const bytes = Buffer.from(part.slice(offset), encoding);
        out.push(bytes.toString("utf8"), bytes.toString("latin1"));
      }
    }
  }
  return out;
}

/** The token's bytes with one bit flipped at `i` (negative: from the end), as a token again. */
function flipBit(token: string, i: number): string {
  const bytes = Buffer.from(token, "base64url");
  bytes[i < 0 ? bytes.length + i : i]! ^= 0x01;
  return bytes.toString("base64url");
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

  it("gives a token that says nothing: no storage key, workspace, render, file name or type in any reading of it", async () => {
    const r = await succeededRender();
    const secrets = [r.fileKey, r.w.id, r.w.id.slice(3), r.id, r.id.slice(4), `${r.id}.pdf`, "renders/", "application/pdf"];
    for (const text of readings(r.token)) {
      for (const s of secrets) expect(text.includes(s), `the token reveals ${s}`).toBe(false);
    }
    expect(r.token.length).toBeLessThanOrEqual(300); // short enough for any URL
    // Two links to the same file share nothing a reader could match.
    const again = await api(`/v1/renders/${r.id}`, { key: r.w.key });
    const other = tokenOf(again.body.result.downloadUrl);
    expect(other).not.toBe(r.token);
    expect(other.slice(0, 16)).not.toBe(r.token.slice(0, 16));
    expect((await fetchToken(other)).status).toBe(200);
  });

  it("answers 403 FORBIDDEN for a token with any byte altered, cut short or lengthened", async () => {
    const r = await succeededRender();
    const length = Buffer.from(r.token, "base64url").length;
    const positions = [0, 5, 11, 12, 20, Math.floor(length / 2), -17, -16, -8, -1];
    const bytes = Buffer.from(r.token, "base64url");
    const cases = [
      ...positions.map((i) => flipBit(r.token, i)),
      bytes.subarray(0, -1).toString("base64url"),
      bytes.subarray(1).toString("base64url"),
      Buffer.concat([bytes, Buffer.from([0])]).toString("base64url"),
      `${r.token}A`,
      r.token.slice(0, -1),
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
    ["base64url of readable JSON", Buffer.from('["renders/x.pdf","application/pdf","x.pdf",9999999999999]').toString("base64url")],
    ["zeros the length of a real token", "A".repeat(218)],
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
