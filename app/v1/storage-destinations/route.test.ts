import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { S3RVER_KEYS, startS3rver, startScriptedS3, type ScriptedS3, type TestS3 } from "@/lib/testing/s3";
import { securityCases } from "@/lib/testing/security-cases";

const BUCKET = "dest-bucket";
let s3: TestS3;
let scripted: ScriptedS3;

beforeAll(async () => {
  [s3, scripted] = await Promise.all([startS3rver([BUCKET]), startScriptedS3()]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), scripted?.stop()]);
});

/** Secrets sent in this file: none may appear in any answer or in the servers' logs. */
const secretsSent = new Set<string>();

const create = (w: TestWorkspace, body: Record<string, unknown>) => {
  if (typeof body.secretAccessKey === "string") secretsSent.add(body.secretAccessKey);
  return api("/v1/storage-destinations", { key: w.key, body });
};
const s3rverDestination = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  endpoint: s3.endpoint,
  bucket: BUCKET,
  forcePathStyle: true,
  ...S3RVER_KEYS,
  ...more,
});

describe("POST /v1/storage-destinations", () => {
  it("runs the test upload, then saves the destination with its defaults and answers 201 without the secret", async () => {
    const w = await createTestWorkspace();
    const res = await create(w, s3rverDestination("Invoices", { prefix: "folio/invoices" }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^dst_/),
      name: "Invoices",
      endpoint: s3.endpoint,
      region: "us-east-1",
      bucket: BUCKET,
      prefix: "folio/invoices",
      forcePathStyle: true,
      accessKeyId: "S3RVER",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      testUpload: { objectKey: "folio/invoices/.service-connection-test", deleted: true },
    });
    expect(res.text).not.toContain("secretAccessKey");
    // The test object was written and deleted again.
    expect(await s3.keys(BUCKET, "folio/invoices/")).toEqual([]);

    const list = await api("/v1/storage-destinations", { key: w.key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [{ ...res.body, testUpload: undefined }].map(({ testUpload: _t, ...d }) => d) });
    const one = await api(`/v1/storage-destinations/${res.body.id}`, { key: w.key });
    expect(one.body.name).toBe("Invoices");
    expect(one.text).not.toContain("secretAccessKey");

    const audit = await api("/v1/audit-events", { key: w.key });
    const event = (audit.body.items as { action: string; targetId: string; details: unknown }[]).find((e) => e.action === "storage_destination.create");
    expect(event?.targetId).toBe(res.body.id);
    expect(event?.details).toMatchObject({ name: "Invoices", bucket: BUCKET, prefix: "folio/invoices" });
    expect(JSON.stringify(event?.details)).not.toMatch(/secret/i);
  });

  it("defaults region to us-east-1 and forcePathStyle to false", async () => {
    const w = await createTestWorkspace();
    // No forcePathStyle: the SDK addresses 127.0.0.1 by path anyway (an IP address cannot carry a bucket name).
    const res = await create(w, { name: "Defaults", endpoint: s3.endpoint, bucket: BUCKET, ...S3RVER_KEYS });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ region: "us-east-1", forcePathStyle: false });
    expect(res.body.prefix).toBeUndefined();
    expect(res.body.testUpload).toEqual({ objectKey: ".service-connection-test", deleted: true });
  });

  it("refuses bad fields with 400 naming each", async () => {
    const w = await createTestWorkspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "x".repeat(121) }, "name"],
      [{ name: "" }, "name"],
      [{ prefix: "/lead" }, "prefix"],
      [{ prefix: "trail/" }, "prefix"],
      [{ prefix: "a//b" }, "prefix"],
      [{ prefix: "a/./b" }, "prefix"],
      [{ prefix: "a/../b" }, "prefix"],
      [{ prefix: ".." }, "prefix"],
      [{ prefix: "p".repeat(513) }, "prefix"],
      [{ endpoint: "ftp://127.0.0.1:21" }, "endpoint"],
      [{ endpoint: "http://user:pass@127.0.0.1:9000" }, "endpoint"],
      [{ endpoint: "http://127.0.0.1:9000/?x=1" }, "endpoint"],
      [{ endpoint: "not a url" }, "endpoint"],
      [{ secretAccessKey: undefined }, "secretAccessKey"],
      [{ bucket: undefined }, "bucket"],
      [{ forcePathStyle: "yes" }, "forcePathStyle"],
      [{ colour: "blue" }, ""],
    ];
    for (const [change, field] of cases) {
      const e = expectError(await create(w, s3rverDestination("Bad", change)), 400, "BAD_REQUEST");
      if (field) expect(JSON.stringify(e), JSON.stringify(change)).toContain(field);
    }
    // A prefix of exactly 512 characters is fine.
    // (in names of 100, as s3rver keeps each name as a file name)
    const prefix512 = Array.from({ length: 6 }, () => "p".repeat(100)).join("/").slice(0, 512);
    expect(prefix512).toHaveLength(512);
    const long = await create(w, s3rverDestination("Long prefix", { prefix: prefix512 }));
    expect(long.status, long.text).toBe(201);
    expect((await api("/v1/storage-destinations", { key: w.key })).body.items).toHaveLength(1);
  });

  it("refuses cloud metadata and link-local endpoints with 400 naming endpoint, even with private networks allowed (as on this test server)", async () => {
    const w = await createTestWorkspace();
    for (const [endpoint, shown] of [
      ["http://169.254.169.254/", "169.254.169.254 is a cloud metadata address"],
      ["http://[fd00:ec2::254]/", "fd00:ec2::254 is a cloud metadata address"],
      ["http://[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe is a cloud metadata address"],
      ["http://[64:ff9b::a9fe:a9fe]", "64:ff9b::a9fe:a9fe is a cloud metadata address"],
      ["http://2852039166", "169.254.169.254 is a cloud metadata address"],
      ["http://169.254.170.2", "169.254.170.2 is a link-local address"],
    ]) {
      const e = expectError(await create(w, s3rverDestination("Metadata", { endpoint })), 400, "BAD_REQUEST");
      expect(e.details, endpoint).toEqual([{ path: "endpoint", message: expect.stringContaining(shown!) }]);
      expect(e.message, endpoint).toContain("even where private networks are allowed");
    }
    // The same installation reaches an object store on loopback.
    expect((await create(w, s3rverDestination("Loopback"))).status).toBe(201);
    expect((await api("/v1/storage-destinations", { key: w.key })).body.items.map((d: { name: string }) => d.name)).toEqual(["Loopback"]);
  });

  it("answers 409 for a name used already, ignoring letter case, and for an eleventh destination", async () => {
    const w = await createTestWorkspace();
    expect((await create(w, s3rverDestination("Archive"))).status).toBe(201);
    const clash = expectError(await create(w, s3rverDestination("ARCHIVE")), 409, "CONFLICT");
    expect(clash.message).toContain("ARCHIVE");
    for (let i = 2; i <= 10; i++) expect((await create(w, s3rverDestination(`Bucket ${i}`))).status).toBe(201);
    const e = expectError(await create(w, s3rverDestination("Eleventh")), 409, "CONFLICT");
    expect(e.message).toMatch(/at most 10/);
    expect((await api("/v1/storage-destinations", { key: w.key })).body.items).toHaveLength(10);
    // Another workspace has its own ten and its own names.
    const other = await createTestWorkspace();
    expect((await create(other, s3rverDestination("Archive"))).status).toBe(201);
  });

  it("answers 400 with the store's reason when the test upload fails, and saves nothing", async () => {
    const w = await createTestWorkspace();
    const wrongKey = expectError(await create(w, s3rverDestination("Wrong key", { accessKeyId: "NOT-A-KEY" })), 400, "BAD_REQUEST");
    expect(wrongKey.message).toContain("InvalidAccessKeyId");
    expect(wrongKey.message).toContain(".service-connection-test");
    expect(wrongKey.details).toEqual([{ path: "accessKeyId", message: expect.stringContaining("InvalidAccessKeyId") }]);

    // s3rver does not check V4 signatures; the scripted store answers as S3 does to a wrong secret.
    const secret = "wrong-secret-Zq8vW3nL5";
    scripted.script = (r) =>
      r.accessKeyId === "SIG" ? { status: 403, code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." } : undefined;
    const wrongSecret = await create(w, { name: "Wrong secret", endpoint: scripted.endpoint, bucket: "b", forcePathStyle: true, accessKeyId: "SIG", secretAccessKey: secret });
    scripted.script = () => undefined;
    const e = expectError(wrongSecret, 400, "BAD_REQUEST");
    expect(e.message).toContain("SignatureDoesNotMatch");
    expect(e.details).toEqual([{ path: "secretAccessKey", message: expect.any(String) }]);
    expect(wrongSecret.text).not.toContain(secret);

    const noBucket = expectError(await create(w, s3rverDestination("No bucket", { bucket: "no-such-bucket" })), 400, "BAD_REQUEST");
    expect(noBucket.message).toContain("NoSuchBucket");
    expect(noBucket.message).toContain("no-such-bucket");
    expect(noBucket.details?.[0]).toMatchObject({ path: "bucket" });

    const unknownHost = expectError(await create(w, s3rverDestination("No host", { endpoint: "http://no-such-host.invalid:9000" })), 400, "BAD_REQUEST");
    expect(unknownHost.message).toMatch(/does not resolve/);

    expect((await api("/v1/storage-destinations", { key: w.key })).body.items).toEqual([]);
  });

  it("saves a destination whose key may write but not delete; the test object stays", async () => {
    const w = await createTestWorkspace();
    scripted.script = (r) => (r.method === "DELETE" ? { status: 403, code: "AccessDenied", message: "Access Denied" } : undefined);
    const before = scripted.requests.length;
    const res = await create(w, { name: "Write only", endpoint: scripted.endpoint, bucket: "wo", forcePathStyle: true, prefix: "in", accessKeyId: "WO", secretAccessKey: "wo-secret-Y7" });
    scripted.script = () => undefined;
    expect(res.status, res.text).toBe(201);
    expect(res.body.testUpload).toEqual({ objectKey: "in/.service-connection-test", deleted: false });
    expect(scripted.requests.slice(before).map((r) => `${r.method} ${r.key}`)).toEqual(["PUT in/.service-connection-test", "DELETE in/.service-connection-test"]);
  });

  it("refuses a member's session with 403 naming destination:manage; owners and admins may", async () => {
    const w = await createTestWorkspace();
    const member = await w.signIn("member");
    const e = expectError(await api("/v1/storage-destinations", { cookie: member.cookie, body: s3rverDestination("Member") }), 403, "FORBIDDEN");
    expect(e.message).toContain("destination:manage");
    expectError(await api("/v1/storage-destinations", { cookie: member.cookie }), 403, "FORBIDDEN");
    const admin = await w.signIn("admin");
    const res = await api("/v1/storage-destinations", { cookie: admin.cookie, body: s3rverDestination("Admin") });
    expect(res.status, res.text).toBe(201);
  });

  describe("security (GET)", () => {
    securityCases({ scope: "destination:manage", request: (w, key) => api("/v1/storage-destinations", { key }) });
  });
  describe("security (POST)", () => {
    securityCases({ scope: "destination:manage", request: (w, key) => api("/v1/storage-destinations", { key, body: s3rverDestination("Sec") }) });
  });

  it("never writes a secret into the servers' logs", async () => {
    const dir = inject("dataDir");
    const logs = fs.readdirSync(dir).filter((f) => f.endsWith(".log")).map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
    expect(logs.length).toBeGreaterThan(0);
    for (const s of secretsSent) if (s !== S3RVER_KEYS.secretAccessKey) expect(logs).not.toContain(s);
  });
});
