import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { S3RVER_KEYS, startS3rver, startScriptedS3, type ScriptedS3, type TestS3 } from "@/lib/testing/s3";
import { securityCases } from "@/lib/testing/security-cases";

const BUCKET = "patch-bucket";
const OTHER_BUCKET = "patch-other";
let s3: TestS3;
let scripted: ScriptedS3;

beforeAll(async () => {
  [s3, scripted] = await Promise.all([startS3rver([BUCKET, OTHER_BUCKET]), startScriptedS3()]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), scripted?.stop()]);
});

async function saved(w: TestWorkspace, more: Record<string, unknown> = {}) {
  const res = await api("/v1/storage-destinations", {
    key: w.key,
    body: { name: "Main", endpoint: s3.endpoint, bucket: BUCKET, forcePathStyle: true, prefix: "first", ...S3RVER_KEYS, ...more },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string; updatedAt: string };
}
const patch = (w: TestWorkspace, id: string, body: unknown) => api(`/v1/storage-destinations/${id}`, { method: "PATCH", key: w.key, body });
const read = async (w: TestWorkspace, id: string) => (await api(`/v1/storage-destinations/${id}`, { key: w.key })).body;

describe("PATCH /v1/storage-destinations/{id}", () => {
  it("renames without a test upload", async () => {
    const w = await createTestWorkspace();
    const d = await api("/v1/storage-destinations", {
      key: w.key,
      body: { name: "Scripted", endpoint: scripted.endpoint, bucket: "b", forcePathStyle: true, accessKeyId: "K", secretAccessKey: "scripted-secret" },
    });
    expect(d.status, d.text).toBe(201);
    const before = scripted.requests.length;
    const res = await patch(w, d.body.id, { name: "Renamed" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe("Renamed");
    expect(res.body.testUpload).toBeUndefined();
    expect(scripted.requests.length).toBe(before); // no request reached the store

    // The same values again are no change either.
    expect((await patch(w, d.body.id, { bucket: "b", forcePathStyle: true })).status).toBe(200);
    expect(scripted.requests.length).toBe(before);
  });

  it("answers 409 when the new name is taken ignoring case, and allows a change of its own case", async () => {
    const w = await createTestWorkspace();
    const a = await saved(w);
    await saved(w, { name: "Other" });
    expectError(await patch(w, a.id, { name: "OTHER" }), 409, "CONFLICT");
    const res = await patch(w, a.id, { name: "MAIN" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe("MAIN");
  });

  it("needs secretAccessKey again to change endpoint, region, bucket or forcePathStyle", async () => {
    const w = await createTestWorkspace();
    const d = await saved(w);
    for (const change of [{ bucket: OTHER_BUCKET }, { region: "eu-west-1" }, { forcePathStyle: false }, { endpoint: null }, { endpoint: scripted.endpoint }]) {
      const e = expectError(await patch(w, d.id, change), 400, "BAD_REQUEST");
      expect(e.details, JSON.stringify(change)).toEqual([{ path: "secretAccessKey", message: expect.stringContaining(Object.keys(change)[0]!) }]);
    }
    expect(await read(w, d.id)).toMatchObject({ bucket: BUCKET, region: "us-east-1", forcePathStyle: true, endpoint: s3.endpoint });

    const res = await patch(w, d.id, { bucket: OTHER_BUCKET, secretAccessKey: S3RVER_KEYS.secretAccessKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ bucket: OTHER_BUCKET, testUpload: { objectKey: "first/.service-connection-test", deleted: true } });
  });

  it("keeps the saved keys when they are left out: a new prefix is tested with the saved secret", async () => {
    const w = await createTestWorkspace();
    const d = await saved(w);
    const res = await patch(w, d.id, { prefix: "second/level" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ prefix: "second/level", testUpload: { objectKey: "second/level/.service-connection-test", deleted: true } });
  });

  it("removes prefix and endpoint with null", async () => {
    const w = await createTestWorkspace();
    const d = await saved(w);
    const res = await patch(w, d.id, { prefix: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.prefix).toBeUndefined();
    expect(res.body.testUpload.objectKey).toBe(".service-connection-test");
    // Without an endpoint the default public object store is used; this machine cannot reach it, so the test upload fails and nothing changes.
    const e = expectError(await patch(w, d.id, { endpoint: null, secretAccessKey: "any" }), 400, "BAD_REQUEST");
    expect(e.message).toMatch(/test upload/);
    expect((await read(w, d.id)).endpoint).toBe(s3.endpoint);
  });

  it("saves nothing when the test upload of a change fails", async () => {
    const w = await createTestWorkspace();
    const d = await saved(w);
    const e = expectError(await patch(w, d.id, { bucket: "missing-bucket", secretAccessKey: S3RVER_KEYS.secretAccessKey }), 400, "BAD_REQUEST");
    expect(e.message).toContain("NoSuchBucket");
    const wrong = await patch(w, d.id, { accessKeyId: "OTHER" });
    expect(expectError(wrong, 400, "BAD_REQUEST").message).toContain("InvalidAccessKeyId");
    expect(await read(w, d.id)).toMatchObject({ bucket: BUCKET, accessKeyId: "S3RVER", updatedAt: d.updatedAt });
  });

  it("refuses unknown fields and an empty change", async () => {
    const w = await createTestWorkspace();
    const d = await saved(w);
    expectError(await patch(w, d.id, {}), 400, "BAD_REQUEST");
    expectError(await patch(w, d.id, { secretAccessKeySealed: "x" }), 400, "BAD_REQUEST");
    expectError(await patch(w, d.id, { prefix: "/x" }), 400, "BAD_REQUEST");
  });

  describe("security", () => {
    securityCases({
      scope: "destination:manage",
      request: (w, key) => api("/v1/storage-destinations/dst_unknown", { method: "PATCH", key, body: { name: "x" } }),
      crossWorkspace: async (w, other) => {
        const d = await saved(other);
        return patch(w, d.id, { name: "stolen" });
      },
    });
  });
});

describe("GET and DELETE /v1/storage-destinations/{id}", () => {
  it("deletes the destination and its keys; objects in the bucket stay", async () => {
    const w = await createTestWorkspace();
    const d = await saved(w, { prefix: "kept" });
    await s3.client.send(
      new (await import("@aws-sdk/client-s3")).PutObjectCommand({ Bucket: BUCKET, Key: "kept/earlier.pdf", Body: "x" }),
    );
    const res = await api(`/v1/storage-destinations/${d.id}`, { method: "DELETE", key: w.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids: [d.id] });
    expectError(await api(`/v1/storage-destinations/${d.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/storage-destinations/${d.id}`, { method: "DELETE", key: w.key }), 404, "NOT_FOUND");
    expect(await s3.keys(BUCKET, "kept/")).toEqual(["kept/earlier.pdf"]);
    const audit = (await api("/v1/audit-events", { key: w.key })).body.items as { action: string }[];
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(["storage_destination.create", "storage_destination.delete"]));
  });

  it("answers 404 for another workspace's destination and leaves it", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const d = await saved(other);
    expectError(await api(`/v1/storage-destinations/${d.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/storage-destinations/${d.id}`, { method: "DELETE", key: w.key }), 404, "NOT_FOUND");
    expect((await read(other, d.id)).name).toBe("Main");
  });

  describe("security (DELETE)", () => {
    securityCases({ scope: "destination:manage", request: (w, key) => api("/v1/storage-destinations/dst_unknown", { method: "DELETE", key }) });
  });
});
