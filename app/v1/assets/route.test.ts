import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import { scopes } from "@/lib/auth/scopes";
import { setLimits } from "@/lib/workspaces";
import { PNG_1X1, putRaw, registerAsset, sha256Hex, uploadAsset, type NewAsset } from "@/lib/testing/assets";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

type Detail = { path?: string; message: string };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const png: NewAsset = { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: PNG_1X1 };
const font = (bytes = randomBytes(64)): NewAsset => ({ kind: "font", mediaType: "font/woff2", filename: "Brand.woff2", bytes });
const paths = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.path);

describe("POST /v1/assets", () => {
  it("registers a pending asset: 201 with the record, the upload link and the headers the upload must carry", async () => {
    const w = await createTestWorkspace();
    const res = await registerAsset(w.key, png);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ast_[0-9A-Za-z]{22}$/),
      kind: "image",
      filename: "logo.png",
      mediaType: "image/png",
      size: PNG_1X1.byteLength,
      sha256: sha256Hex(PNG_1X1),
      state: "pending",
      createdAt: expect.stringMatching(ISO),
      uploadUrl: expect.stringMatching(new RegExp(`^${inject("baseUrl")}/v1/storage/uploads/[A-Za-z0-9_-]{40,}$`)),
      uploadHeaders: { "content-type": "image/png", "content-length": String(PNG_1X1.byteLength), "x-folio-sha256": sha256Hex(PNG_1X1) },
      uploadExpiresAt: expect.stringMatching(ISO),
    });
    const ttl = Date.parse(res.body.uploadExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  it("accepts every media type of the spec's kind table, and font/woff", async () => {
    const w = await createTestWorkspace();
    const table: [string, string][] = [
      ["image", "image/png"],
      ["image", "image/jpeg"],
      ["svg", "image/svg+xml"],
      ["font", "font/woff2"],
      ["font", "font/woff"],
      ["font", "font/ttf"],
      ["font", "font/otf"],
      ["stylesheet", "text/css"],
      ["workbook", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ];
    for (const [kind, mediaType] of table) {
      const res = await registerAsset(w.key, { kind: kind as NewAsset["kind"], mediaType, bytes: randomBytes(10) });
      expect(res.status, `${kind} ${mediaType}: ${res.text}`).toBe(201);
    }
  });

  it("answers 400 naming each bad field: media type of another kind, size, sha256, file name, unknown fields", async () => {
    const w = await createTestWorkspace();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ mediaType: "font/woff2" }, "mediaType", /image\/png or image\/jpeg for kind image/],
      [{ mediaType: "image/gif" }, "mediaType", /image\/png or image\/jpeg/],
      [{ kind: "video" }, "kind", /./],
      [{ size: 0 }, "size", /at least 1/],
      [{ size: 1.5 }, "size", /whole number/],
      [{ sha256: sha256Hex(PNG_1X1).toUpperCase() }, "sha256", /lowercase/],
      [{ sha256: "abc" }, "sha256", /64/],
      [{ filename: "" }, "filename", /empty/],
      [{ filename: "x".repeat(256) }, "filename", /255/],
      [{ filename: "brand/logo.png" }, "filename", /not a path/],
      [{ filename: "..\\logo.png" }, "filename", /not a path/],
      [{ filename: "logo\u0000.png" }, "filename", /NUL|control/],
      [{ filename: "logo\n.png" }, "filename", /control/],
      [{ filename: ".." }, "filename", /\.\./],
      [{ extra: 1 }, "extra", /not a known field/],
    ];
    for (const [override, path, message] of cases) {
      const e = expectError(await registerAsset(w.key, png, override), 400, "BAD_REQUEST");
      expect(paths(e), JSON.stringify(override)).toContain(path);
      const detail = (e.details as Detail[]).find((d) => d.path === path)!;
      expect(detail.message, JSON.stringify(override)).toMatch(message);
    }
    const list = await api("/v1/assets", { key: w.key });
    expect(list.body.items).toEqual([]);
  });

  it("answers 400 LIMIT_EXCEEDED naming size for an asset over 50,000,000 bytes, and accepts exactly 50,000,000", async () => {
    // spec: Limits > Assets and Errors: over a size limit is LIMIT_EXCEEDED, not BAD_REQUEST.
    const w = await createTestWorkspace();
    const e = expectError(await registerAsset(w.key, png, { size: 50_000_001 }), 400, "LIMIT_EXCEEDED");
    expect(e.details).toEqual([{ path: "size", message: expect.stringMatching(/50000000/) }]);
    expect((await api("/v1/assets", { key: w.key })).body.items).toEqual([]);
    const exact = await registerAsset(w.key, png, { size: 50_000_000 });
    expect(exact.status, exact.text).toBe(201);
  });

  it("accepts 255-character names and names with spaces and non-ASCII letters", async () => {
    const w = await createTestWorkspace();
    for (const filename of ["x".repeat(251) + ".png", "Logo (final) Größe – 2.png"]) {
      const res = await registerAsset(w.key, png, { filename });
      expect(res.status, res.text).toBe(201);
      expect(res.body.filename).toBe(filename);
    }
  });

  it("is audited as asset.create with kind, file name and size", async () => {
    const w = await createTestWorkspace();
    const res = await registerAsset(w.key, png);
    const audit = await api("/v1/audit-events?action=asset.create", { key: w.key });
    expect(audit.body.items).toEqual([
      expect.objectContaining({ action: "asset.create", targetType: "asset", targetId: res.body.id, actor: { type: "apiKey", id: w.keyId }, details: { kind: "image", filename: "logo.png", size: PNG_1X1.byteLength } }),
    ]);
  });

  it("lets a key with template:content (no asset:manage) register images and SVG but not fonts (403 naming asset:manage)", async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(["template:read", "template:content"]);
    expect((await registerAsset(k.secret, png)).status).toBe(201);
    expect((await registerAsset(k.secret, { kind: "svg", mediaType: "image/svg+xml", bytes: Buffer.from("<svg/>") })).status).toBe(201);
    const e = expectError(await registerAsset(k.secret, font()), 403, "FORBIDDEN");
    expect(e.message).toContain("asset:manage");
  });

  describe("storage quota (maxStorageBytes)", () => {
    it("answers 402 QUOTA_EXCEEDED and creates nothing when the file does not fit", async () => {
      const w = await createTestWorkspace();
      await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: 100 });
      const e = expectError(await registerAsset(w.key, font(randomBytes(101))), 402, "QUOTA_EXCEEDED");
      expect(e.message).toMatch(/storage is full/i);
      expect(e.message).toContain("100");
      expect((await api("/v1/assets", { key: w.key })).body.items).toEqual([]);
      expect((await registerAsset(w.key, font(randomBytes(100)))).status).toBe(201);
    });

    it("counts uploads in flight, and content stored or reserved once however many assets name it", async () => {
      const w = await createTestWorkspace();
      await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: 150 });
      const a = font(randomBytes(100));
      const stored = await uploadAsset(w.key, a);
      expect(stored.state).toBe("ready");
      // The same content again needs no space: it is stored once.
      expect((await registerAsset(w.key, { ...a, filename: "Copy.woff2" })).status).toBe(201);
      // 60 new bytes do not fit beside the 100 stored.
      expectError(await registerAsset(w.key, font(randomBytes(60))), 402, "QUOTA_EXCEEDED");
      // 50 do, and while their upload is in flight they are reserved...
      const b = font(randomBytes(50));
      const pending = await registerAsset(w.key, b);
      expect(pending.status).toBe(201);
      // ...but the same pending content registered twice is reserved once.
      expect((await registerAsset(w.key, { ...b, filename: "Again.woff2" })).status).toBe(201);
      expectError(await registerAsset(w.key, font(randomBytes(1))), 402, "QUOTA_EXCEEDED");
      expect((await putRaw(pending.body.uploadUrl, pending.body.uploadHeaders, b.bytes)).status).toBe(200);
    });

    it("treats null as unlimited", async () => {
      const w = await createTestWorkspace();
      await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: 10 });
      await setLimits(systemCtx(w.id, "test"), { maxStorageBytes: null });
      expect((await registerAsset(w.key, font(randomBytes(1000)))).status).toBe(201);
    });
  });

  securityCases({ scope: "asset:manage", request: (w, key) => registerAsset(key, font()) });
});

describe("GET /v1/assets", () => {
  it("pages newest first with a cursor, and filters by kind", async () => {
    const w = await createTestWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const a = i % 2 ? png : font();
      const res = await registerAsset(w.key, { ...a, bytes: randomBytes(8) }, { filename: `f${i}` });
      ids.push(res.body.id);
    }
    const first = await api("/v1/assets?limit=2", { key: w.key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((a: { id: string }) => a.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.items[0]).toEqual({
      id: ids[4],
      kind: "font",
      filename: "f4",
      mediaType: "font/woff2",
      size: 8,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      state: "pending",
      createdAt: expect.stringMatching(ISO),
    });
    const second = await api(`/v1/assets?limit=2&cursor=${first.body.nextCursor}`, { key: w.key });
    expect(second.body.items.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const third = await api(`/v1/assets?limit=2&cursor=${second.body.nextCursor}`, { key: w.key });
    expect(third.body.items.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(third.body.nextCursor).toBeUndefined();

    const images = await api("/v1/assets?kind=image", { key: w.key });
    expect(images.body.items.map((a: { id: string }) => a.id)).toEqual([ids[3], ids[1]]);
    expectError(await api("/v1/assets?kind=video", { key: w.key }), 400, "BAD_REQUEST");
    expectError(await api("/v1/assets?cursor=nonsense", { key: w.key }), 400, "BAD_REQUEST");
    expectError(await api("/v1/assets?limit=101", { key: w.key }), 400, "BAD_REQUEST");
  });

  it("shows a ready asset with uploadedAt and no link (links come with GET of one asset)", async () => {
    const w = await createTestWorkspace();
    const a = await uploadAsset(w.key, png);
    const list = await api("/v1/assets", { key: w.key });
    expect(list.body.items).toEqual([{ ...a, uploadedAt: expect.stringMatching(ISO) }]);
    expect(list.body.items[0].downloadUrl).toBeUndefined();
  });

  it("never lists another workspace's assets", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await registerAsset(other.key, png);
    expect((await api("/v1/assets", { key: w.key })).body.items).toEqual([]);
  });

  it("shows a key with template:content alone only images and SVG (asking for fonts: 403 naming asset:manage)", async () => {
    const w = await createTestWorkspace();
    const image = await registerAsset(w.key, png);
    await registerAsset(w.key, font());
    const k = await w.newKey(["template:read", "template:content"]);
    const list = await api("/v1/assets", { key: k.secret });
    expect(list.body.items.map((a: { id: string }) => a.id)).toEqual([image.body.id]);
    expect(expectError(await api("/v1/assets?kind=font", { key: k.secret }), 403, "FORBIDDEN").message).toContain("asset:manage");
  });

  it("answers 403 naming asset:manage to a key with neither asset:manage nor template:content", async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(scopes.filter((s) => s !== "asset:manage" && s !== "template:content"));
    const e = expectError(await api("/v1/assets", { key: k.secret }), 403, "FORBIDDEN");
    expect(e.message).toContain("asset:manage");
  });

  it("answers 401 without a key", async () => {
    expectError(await api("/v1/assets"), 401, "UNAUTHORIZED");
  });

  it("serves a console session (the Assets page reads it with the person's cookie)", async () => {
    const w = await createTestWorkspace();
    await registerAsset(w.key, png);
    const { cookie } = await w.signIn("member");
    const res = await api("/v1/assets", { cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toHaveLength(1);
  });
});
