import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { blobKey } from "@/lib/documents/asset-refs";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { assetBlobs, assets } from "@/lib/db/schema";
import { downloadLink, uploadLink } from "@/lib/files/links";
import { fileStore } from "@/lib/files/store";
import { setLimits } from "@/lib/workspaces";
import { PNG_1X1, putRaw, registerAsset, sha256Hex, uploadAsset, type NewAsset } from "@/lib/testing/assets";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const font = (bytes: Uint8Array = randomBytes(300)): NewAsset => ({ kind: "font", mediaType: "font/woff2", filename: "Brand.woff2", bytes });

type Registered = { id: string; uploadUrl: string; uploadHeaders: Record<string, string>; sha256: string; size: number };

async function register(w: TestWorkspace, a: NewAsset = font()): Promise<Registered & { bytes: Uint8Array }> {
  const res = await registerAsset(w.key, a);
  expect(res.status, res.text).toBe(201);
  return { ...(res.body as Registered), bytes: a.bytes };
}

/** What the store and the database hold for an asset: its state, its blob row, its file. */
async function stored(workspaceId: string, assetId: string, sha256: string) {
  const [a] = await db().select({ state: assets.state }).from(assets).where(eq(assets.id, assetId));
  const [b] = await db().select().from(assetBlobs).where(and(eq(assetBlobs.workspaceId, workspaceId), eq(assetBlobs.sha256, sha256)));
  const file = await fileStore().get(blobKey(workspaceId, sha256));
  let bytes: Buffer | undefined;
  if (file) bytes = file.body instanceof Uint8Array ? Buffer.from(file.body) : Buffer.concat(await file.body.toArray());
  return { state: a?.state, blob: b, bytes };
}

async function expectNothingStored(w: TestWorkspace, r: Registered) {
  const s = await stored(w.id, r.id, r.sha256);
  expect(s.state).toBe("pending");
  expect(s.blob).toBeUndefined();
  expect(s.bytes).toBeUndefined();
  // An upload is spooled to a private file as it arrives (never held whole in memory): none is left behind.
  await expect.poll(() => spoolsLeft()).toEqual([]);
}

const spoolsLeft = () => {
  const dir = path.join(inject("dataDir"), "uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

function expectRefusal(res: Awaited<ReturnType<typeof putRaw>>, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.error?.code, res.text).toBe(code);
  expect(res.headers["x-request-id"]).toEqual(expect.any(String));
  return res.body!.error!;
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const uploadPath = (token: string) => `${inject("baseUrl")}/v1/storage/uploads/${token}`;

describe("PUT {uploadUrl}", () => {
  it("stores the bytes once they match, marks the asset ready, and GET gives a download link for them", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const res = await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: r.id,
      kind: "font",
      filename: "Brand.woff2",
      mediaType: "font/woff2",
      size: 300,
      sha256: r.sha256,
      state: "ready",
      createdAt: expect.stringMatching(ISO),
      uploadedAt: expect.stringMatching(ISO),
    });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    const s = await stored(w.id, r.id, r.sha256);
    expect(s.state).toBe("ready");
    expect(s.blob).toMatchObject({ size: 300, mediaType: "font/woff2", storageKey: `assets/${w.id}/${r.sha256}` });
    expect(s.bytes?.equals(Buffer.from(r.bytes))).toBe(true);
    expect(spoolsLeft()).toEqual([]);

    const got = await api(`/v1/assets/${r.id}`, { key: w.key });
    const file = await fetch(got.body.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("font/woff2");
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(r.bytes))).toBe(true);
  });

  it("accepts header values that differ only in case or surrounding space", async () => {
    const w = await createTestWorkspace();
    const r = await register(w, { kind: "image", mediaType: "image/png", bytes: PNG_1X1 });
    const res = await putRaw(r.uploadUrl, { "Content-Type": " Image/PNG", "Content-Length": String(r.size), "X-Folio-Sha256": r.sha256.toUpperCase() }, r.bytes);
    expect(res.status, res.text).toBe(200);
  });

  it("answers a second upload of the same bytes with the ready asset and stores nothing new; other bytes are refused", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    expect((await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes)).status).toBe(200);
    const again = await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: r.id, state: "ready" });
    const other = randomBytes(300);
    const e = expectRefusal(await putRaw(r.uploadUrl, r.uploadHeaders, other), 400, "BAD_REQUEST");
    expect(e.message).toMatch(/SHA-256/);
    expect((await stored(w.id, r.id, r.sha256)).bytes?.equals(Buffer.from(r.bytes))).toBe(true);
  });

  it("refuses bytes whose SHA-256 differs from the registered one (400), storing nothing; the right bytes then go through", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const wrong = Buffer.from(r.bytes);
    wrong[0] = wrong[0]! ^ 0xff;
    const e = expectRefusal(await putRaw(r.uploadUrl, r.uploadHeaders, wrong), 400, "BAD_REQUEST");
    expect(e.message).toContain(r.sha256);
    expect(e.message).toContain(sha256Hex(wrong));
    expect(e.message).toMatch(/nothing was stored/);
    expect(e.details).toEqual([expect.objectContaining({ path: "body" })]);
    await expectNothingStored(w, r);
    expect((await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes)).status).toBe(200);
  });

  it("refuses a body shorter or longer than the registered size (400 naming content-length), storing nothing", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    for (const body of [Buffer.from(r.bytes).subarray(0, 299), Buffer.concat([r.bytes, Buffer.from("x")])]) {
      const e = expectRefusal(await putRaw(r.uploadUrl, { ...r.uploadHeaders, "content-length": String(body.byteLength) }, body), 400, "BAD_REQUEST");
      expect(e.message).toContain(`the upload has ${body.byteLength} bytes but asset ${r.id} was registered with 300`);
      expect(e.details).toEqual([expect.objectContaining({ path: "headers.content-length" })]);
      await expectNothingStored(w, r);
    }
  });

  it("cuts off a body sent without content-length one chunk past the registered size: 400, nothing stored", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const headers = { ...r.uploadHeaders, "transfer-encoding": "chunked" };
    delete (headers as Record<string, string>)["content-length"];
    const e = expectRefusal(await putRaw(r.uploadUrl, headers, Buffer.alloc(2_000_000)), 400, "BAD_REQUEST");
    expect(e.details).toEqual([expect.objectContaining({ path: "headers.content-length", message: expect.stringMatching(/missing/) })]);
    await expectNothingStored(w, r);
  });

  it("stores nothing when the client stops sending before the body is whole", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const url = new URL(r.uploadUrl);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        const head = [`PUT ${url.pathname} HTTP/1.1`, `host: ${url.host}`, ...Object.entries(r.uploadHeaders).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
        socket.write(head);
        socket.write(Buffer.from(r.bytes).subarray(0, 100));
        setTimeout(() => socket.end(), 200);
      });
      socket.on("error", reject);
      socket.on("close", () => resolve());
      socket.resume();
    });
    await expectNothingStored(w, r);
    expect((await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes)).status).toBe(200);
  });

  it("refuses an upload missing a header or carrying another value (400 naming each header), storing nothing", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const cases: [Record<string, string | undefined>, string][] = [
      [{ "content-type": undefined }, "headers.content-type"],
      [{ "content-type": "application/octet-stream" }, "headers.content-type"],
      [{ "x-folio-sha256": undefined }, "headers.x-folio-sha256"],
      [{ "x-folio-sha256": sha256Hex("other") }, "headers.x-folio-sha256"],
    ];
    for (const [change, path] of cases) {
      const headers: Record<string, string> = { ...r.uploadHeaders };
      for (const [k, v] of Object.entries(change)) {
        if (v === undefined) delete headers[k];
        else headers[k] = v;
      }
      const e = expectRefusal(await putRaw(r.uploadUrl, headers, r.bytes), 400, "BAD_REQUEST");
      expect(e.details?.map((d) => d.path), JSON.stringify(change)).toEqual([path]);
      expect(e.message).toContain(path.slice("headers.".length));
    }
    const both = expectRefusal(await putRaw(r.uploadUrl, { "content-length": "300" }, r.bytes), 400, "BAD_REQUEST");
    expect(both.details?.map((d) => d.path)).toEqual(["headers.content-type", "headers.x-folio-sha256"]);
    await expectNothingStored(w, r);
  });

  it("answers 403 FORBIDDEN for an expired link, while one sealed four minutes ago still works", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const expired = uploadLink({ assetId: r.id, workspaceId: w.id }, Date.now() - 6 * 60_000);
    const e = expectRefusal(await putRaw(uploadPath(tokenOf(expired.url)), r.uploadHeaders, r.bytes), 403, "FORBIDDEN");
    expect(e.message).toMatch(/expired/);
    await expectNothingStored(w, r);
    const recent = uploadLink({ assetId: r.id, workspaceId: w.id }, Date.now() - 4 * 60_000);
    expect((await putRaw(uploadPath(tokenOf(recent.url)), r.uploadHeaders, r.bytes)).status).toBe(200);
  });

  it("answers 403 for an altered, cut or lengthened token, for a download token, and percent garbage; never 500", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const token = tokenOf(r.uploadUrl);
    const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === "A" ? "B" : "A") + t.slice(i + 1);
    const download = tokenOf(downloadLink({ key: blobKey(w.id, r.sha256), contentType: "font/woff2", filename: "x" }).url);
    const bad = [flip(token, 0), flip(token, 30), flip(token, token.length - 1), token.slice(0, -2), `${token}AA`, download, "%E0%A4%A", "%zz", "x/y", ""];
    for (const t of bad) {
      const res = await putRaw(uploadPath(t), r.uploadHeaders, r.bytes);
      expectRefusal(res, 403, "FORBIDDEN");
    }
    // A NUL in any path is a bad request before a link is read (docs/api.md, Conventions).
    expectRefusal(await putRaw(uploadPath(`${token}%00`), r.uploadHeaders, r.bytes), 400, "BAD_REQUEST");
    await expectNothingStored(w, r);
    // ...and an upload token opens no download.
    const asDownload = await api(`/v1/storage/downloads/${token}`);
    expect(asDownload.status).toBe(403);
  });

  it("answers 404 when the asset was deleted after its link was issued", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    expect((await api(`/v1/assets/${r.id}`, { key: w.key, method: "DELETE" })).status).toBe(200);
    expectRefusal(await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes), 404, "NOT_FOUND");
  });

  it("checks the storage quota again at upload: 402 with nothing stored when the space went meanwhile", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: 299 });
    const e = expectRefusal(await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes), 402, "QUOTA_EXCEEDED");
    expect(e.message).toMatch(/nothing was stored/);
    await expectNothingStored(w, r);
    await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: 300 });
    expect((await putRaw(r.uploadUrl, r.uploadHeaders, r.bytes)).status).toBe(200);
  });

  it("counts content stored once: a second asset of the same bytes uploads into a full workspace and shares the blob", async () => {
    const w = await createTestWorkspace();
    const a = font();
    const first = await uploadAsset(w.key, a);
    await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: 300 });
    const second = await uploadAsset(w.key, { ...a, filename: "Copy.woff2" });
    expect(second.id).not.toBe(first.id);
    const blobs = await db().select().from(assetBlobs).where(eq(assetBlobs.workspaceId, w.id));
    expect(blobs).toHaveLength(1);
  });

  it("stores one blob when two assets of the same content upload at once", async () => {
    const w = await createTestWorkspace();
    const a = font(randomBytes(200_000));
    const [r1, r2] = [await register(w, a), await register(w, { ...a, filename: "Second.woff2" })];
    const [p1, p2] = await Promise.all([putRaw(r1.uploadUrl, r1.uploadHeaders, a.bytes), putRaw(r2.uploadUrl, r2.uploadHeaders, a.bytes)]);
    expect([p1.status, p2.status]).toEqual([200, 200]);
    const [n] = await db().execute<{ n: number }>(sql`select count(*)::int as n from asset_blobs where workspace_id = ${w.id}`);
    expect(n!.n).toBe(1);
  });

  it("answers a CORS preflight: any origin may PUT with the upload headers (the link is the credential)", async () => {
    const w = await createTestWorkspace();
    const r = await register(w);
    const res = await fetch(r.uploadUrl, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "PUT", "access-control-request-headers": "content-type, x-folio-sha256" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(res.headers.get("access-control-allow-headers")).toContain("x-folio-sha256");
  });

  it("keeps a blob's file when its last asset is deleted and the same content is uploaded again at once", async () => {
    const w = await createTestWorkspace();
    const a = font();
    const first = await uploadAsset(w.key, a);
    expect((await api(`/v1/assets/${first.id}`, { key: w.key, method: "DELETE" })).status).toBe(200);
    const second = await uploadAsset(w.key, a);
    // The deletion queued for the first asset's blob runs, finds the blob stored again, and leaves it.
    await expect
      .poll(async () => {
        const [j] = await db().execute<{ n: number }>(
          sql`select count(*)::int as n from pgboss.job where name = 'blob-deletion' and data->>'workspaceId' = ${w.id} and state = 'completed'`,
        );
        return j!.n;
      }, { timeout: 30_000, interval: 200 })
      .toBe(1);
    const s = await stored(w.id, second.id, second.sha256);
    expect(s.state).toBe("ready");
    expect(s.bytes?.equals(Buffer.from(a.bytes))).toBe(true);
  });
});
