import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { storageBytes } from "@/lib/assets";
import { blobKey } from "@/lib/documents/asset-refs";
import { registerAsset as registerVerb } from "@/lib/assets";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { assetBlobs, templateVersionBlobs, workspaceFiles, workspaceFolders } from "@/lib/db/schema";
import { fileStore } from "@/lib/files/store";
import { PNG_1X1, registerAsset, sha256Hex, uploadAsset, type NewAsset } from "@/lib/testing/assets";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const png: NewAsset = { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: PNG_1X1 };
const font = (bytes: Uint8Array = randomBytes(120)): NewAsset => ({ kind: "font", mediaType: "font/woff2", filename: "Brand.woff2", bytes });

const fileExists = async (w: TestWorkspace, sha256: string) => (await fileStore().get(blobKey(w.id, sha256))) !== null;
const blobRow = async (w: TestWorkspace, sha256: string) =>
  (await db().select().from(assetBlobs).where(and(eq(assetBlobs.workspaceId, w.id), eq(assetBlobs.sha256, sha256))))[0];
const del = (key: string | undefined, id: string) => api(`/v1/assets/${id}`, { key, method: "DELETE" });

/** A font asset of w made through the verb (works while w's key is revoked or w suspended). */
const pendingFont = async (w: TestWorkspace) => {
  const a = font();
  return registerVerb(systemCtx(w.id, "test"), { kind: "font", filename: "x.woff2", mediaType: a.mediaType, size: a.bytes.byteLength, sha256: sha256Hex(a.bytes) });
};

/** A template whose draft shows this image literally. */
async function templateUsing(w: TestWorkspace, assetId: string, name = "Letterhead") {
  const content = { composition: { root: { type: "container", children: [{ type: "image", assetId, width: 120 }, { type: "text", text: "Hi" }] } } };
  const res = await api("/v1/templates", { key: w.key, body: { name, content } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; draftRevision: number };
}

/** A workspace file brand/<name> backed by the asset (rows written directly: the files API is another part's). */
async function fileUsing(w: TestWorkspace, assetId: string, name = "logo.png") {
  const folderId = newId("fld");
  await db().insert(workspaceFolders).values({ id: folderId, workspaceId: w.id, name: "brand" });
  const id = newId("fil");
  await db().insert(workspaceFiles).values({ id, workspaceId: w.id, folderId, name, kind: "asset", assetId, mediaType: "image/png", size: PNG_1X1.byteLength, updatedByType: "system", updatedById: "test" });
  return id;
}

describe("GET /v1/assets/{id}", () => {
  it("shows a pending asset without links, and a ready one with a fresh five-minute download link to its bytes", async () => {
    const w = await createTestWorkspace();
    const reg = await registerAsset(w.key, png);
    const pending = await api(`/v1/assets/${reg.body.id}`, { key: w.key });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toEqual({
      id: reg.body.id,
      kind: "image",
      filename: "logo.png",
      mediaType: "image/png",
      size: PNG_1X1.byteLength,
      sha256: sha256Hex(PNG_1X1),
      state: "pending",
      createdAt: reg.body.createdAt,
    });

    await uploadAsset(w.key, png);
    const ready = (await api("/v1/assets?limit=1", { key: w.key })).body.items[0];
    const got = await api(`/v1/assets/${ready.id}`, { key: w.key });
    expect(got.body).toEqual({ ...ready, downloadUrl: expect.stringMatching(/\/v1\/storage\/downloads\/[A-Za-z0-9_-]+$/), expiresAt: expect.stringMatching(ISO) });
    const ttl = Date.parse(got.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const again = await api(`/v1/assets/${ready.id}`, { key: w.key });
    expect(again.body.downloadUrl).not.toBe(got.body.downloadUrl);

    const file = await fetch(got.body.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("content-length")).toBe(String(PNG_1X1.byteLength));
    expect(file.headers.get("content-disposition")).toContain("logo.png");
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  });

  it("serves an SVG's link sandboxed, so scripts in an uploaded SVG never run in Folio's origin", async () => {
    const w = await createTestWorkspace();
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`);
    const a = await uploadAsset(w.key, { kind: "svg", mediaType: "image/svg+xml", filename: "x.svg", bytes: svg });
    const file = await fetch((await api(`/v1/assets/${a.id}`, { key: w.key })).body.downloadUrl);
    expect(file.headers.get("content-type")).toBe("image/svg+xml");
    expect(file.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers 404 for an unknown id", async () => {
    const w = await createTestWorkspace();
    expectError(await api("/v1/assets/ast_nothing", { key: w.key }), 404, "NOT_FOUND");
  });

  it("lets a key with template:content alone read images, not fonts (403 naming asset:manage)", async () => {
    const w = await createTestWorkspace();
    const image = await registerAsset(w.key, png);
    const f = await registerAsset(w.key, font());
    const k = await w.newKey(["template:read", "template:content"]);
    expect((await api(`/v1/assets/${image.body.id}`, { key: k.secret })).status).toBe(200);
    expect(expectError(await api(`/v1/assets/${f.body.id}`, { key: k.secret }), 403, "FORBIDDEN").message).toContain("asset:manage");
  });

  securityCases({
    scope: "asset:manage",
    request: async (w, key) => api(`/v1/assets/${(await pendingFont(w)).id}`, { key }),
    crossWorkspace: async (w, other) => api(`/v1/assets/${(await pendingFont(other)).id}`, { key: w.key }),
  });
});

describe("DELETE /v1/assets/{id}", () => {
  it("deletes an unused asset: 200 with the id, audited, gone from GET, and its blob and file freed", async () => {
    const w = await createTestWorkspace();
    const a = await uploadAsset(w.key, png);
    expect(await fileExists(w, a.sha256)).toBe(true);
    const res = await del(w.key, a.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids: [a.id] });
    expectError(await api(`/v1/assets/${a.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await del(w.key, a.id), 404, "NOT_FOUND");
    expect(await blobRow(w, a.sha256)).toBeUndefined();
    expect(await storageBytes(db(), w.id)).toBe(0);
    await expect.poll(() => fileExists(w, a.sha256), { timeout: 30_000, interval: 200 }).toBe(false);
    const audit = await api("/v1/audit-events?action=asset.delete", { key: w.key });
    expect(audit.body.items).toEqual([expect.objectContaining({ targetType: "asset", targetId: a.id, details: { kind: "image", filename: "logo.png" } })]);
  });

  it("deletes a pending asset", async () => {
    const w = await createTestWorkspace();
    const reg = await registerAsset(w.key, font());
    expect((await del(w.key, reg.body.id)).status).toBe(200);
    expect((await api("/v1/assets", { key: w.key })).body.items).toEqual([]);
  });

  it("refuses with 409 while a template draft or a workspace file uses it, naming each user; the asset stays", async () => {
    const w = await createTestWorkspace();
    const a = await uploadAsset(w.key, png);
    const t = await templateUsing(w, a.id, "Letterhead");
    const e1 = expectError(await del(w.key, a.id), 409, "CONFLICT");
    expect(e1.message).toContain(a.id);
    expect(e1.details).toEqual([{ message: `template ${t.id} (Letterhead) uses it in an image component of its draft` }]);

    const fileId = await fileUsing(w, a.id);
    const e2 = expectError(await del(w.key, a.id), 409, "CONFLICT");
    expect(e2.details).toEqual([{ message: `workspace file brand/logo.png (${fileId}) is this asset` }, { message: `template ${t.id} (Letterhead) uses it in an image component of its draft` }]);
    expect((await api(`/v1/assets/${a.id}`, { key: w.key })).body.state).toBe("ready");
    expect(await fileExists(w, a.sha256)).toBe(true);

    // Another template naming the id only in text does not use it.
    const other = await uploadAsset(w.key, { ...png, bytes: Buffer.concat([PNG_1X1, Buffer.from([0])]) });
    const mention = await api("/v1/templates", { key: w.key, body: { name: "Mentions", content: { composition: { root: { type: "text", text: `see ${other.id}` } } } } });
    expect(mention.status, mention.text).toBe(201);
    expect((await del(w.key, other.id)).status).toBe(200);
  });

  it("keeps a blob two assets share until the last one goes", async () => {
    const w = await createTestWorkspace();
    const bytes = font().bytes;
    const a = await uploadAsset(w.key, font(bytes));
    const b = await uploadAsset(w.key, { ...font(bytes), filename: "Copy.woff2" });
    expect(await storageBytes(db(), w.id)).toBe(120);
    expect((await del(w.key, a.id)).status).toBe(200);
    expect(await blobRow(w, a.sha256)).toBeDefined();
    expect(await fileExists(w, a.sha256)).toBe(true);
    expect((await del(w.key, b.id)).status).toBe(200);
    expect(await blobRow(w, a.sha256)).toBeUndefined();
    await expect.poll(() => fileExists(w, a.sha256), { timeout: 30_000, interval: 200 }).toBe(false);
  });

  it("keeps the bytes a published version copied, counted once, until the version goes with its template", async () => {
    const w = await createTestWorkspace();
    const a = await uploadAsset(w.key, png);
    const t = await templateUsing(w, a.id);
    const v = await api(`/v1/templates/${t.id}/versions`, { key: w.key, body: { expectedRevision: t.draftRevision } });
    expect(v.status, v.text).toBe(201);
    // Publishing recorded the version's image.
    expect(await db().select().from(templateVersionBlobs).where(eq(templateVersionBlobs.versionId, v.body.id))).toEqual([{ versionId: v.body.id, workspaceId: w.id, sha256: a.sha256 }]);
    // The draft no longer shows the image; the version still does.
    const saved = await api(`/v1/templates/${t.id}/draft`, { method: "PUT", key: w.key, body: { content: { composition: { root: { type: "text", text: "no image" } } }, expectedRevision: t.draftRevision } });
    expect(saved.status, saved.text).toBe(200);
    expect((await del(w.key, a.id)).status).toBe(200);
    expect(await blobRow(w, a.sha256)).toBeDefined();
    expect(await storageBytes(db(), w.id)).toBe(PNG_1X1.byteLength);
    // Uploading the same file again takes no more space.
    await uploadAsset(w.key, png);
    expect(await storageBytes(db(), w.id)).toBe(PNG_1X1.byteLength);
    const again = (await api("/v1/assets", { key: w.key })).body.items[0];
    expect((await del(w.key, again.id)).status).toBe(200);
    expect(await fileExists(w, a.sha256)).toBe(true);

    // The version goes (template deletion), and with the last user the blob.
    expect((await api(`/v1/templates/${t.id}`, { method: "DELETE", key: w.key })).status).toBe(200);
    expect(await blobRow(w, a.sha256)).toBeUndefined();
    expect(await storageBytes(db(), w.id)).toBe(0);
    await expect.poll(() => fileExists(w, a.sha256), { timeout: 30_000, interval: 200 }).toBe(false);
  });

  it("answers 403 naming asset:manage to a key with template:content alone, even for an image", async () => {
    const w = await createTestWorkspace();
    const image = await registerAsset(w.key, png);
    const k = await w.newKey(["template:read", "template:content"]);
    expect(expectError(await del(k.secret, image.body.id), 403, "FORBIDDEN").message).toContain("asset:manage");
  });

  securityCases({
    scope: "asset:manage",
    request: async (w, key) => del(key, (await pendingFont(w)).id),
    crossWorkspace: async (w, other) => del(w.key, (await pendingFont(other)).id),
  });
});
