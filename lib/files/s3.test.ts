import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { PgBoss } from "pg-boss";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEnvironment, type Environment } from "@/lib/testing/environment";
import { api, expectError } from "@/lib/testing/http";
import { pdfText, imageSize } from "@/lib/testing/pdf";
import { createRender, download } from "@/lib/testing/renders";

// s3rver ships no types; only these members are used.
type S3rverServer = { run(): Promise<{ address: string; port: number }>; close(): Promise<void> };
type S3rverOptions = { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] };
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: S3rverOptions) => S3rverServer;

const BUCKET = "folio";
let s3dir: string;
let s3server: S3rverServer | undefined;
let s3: S3Client;
let env: Environment;
let sql: postgres.Sql;

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-s3rver-"));
  s3server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  env = await startEnvironment({
    FILE_STORE: "s3",
    FILE_STORE_S3_ENDPOINT: endpoint,
    FILE_STORE_S3_BUCKET: BUCKET,
    FILE_STORE_S3_ACCESS_KEY_ID: "S3RVER",
    FILE_STORE_S3_SECRET_ACCESS_KEY: "S3RVER",
    FILE_STORE_S3_FORCE_PATH_STYLE: "true",
    FILE_STORE_S3_REGION: "us-east-1",
  });
  sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await env?.stop();
  s3?.destroy();
  await s3server?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

const opts = () => ({ baseUrl: env.baseUrl });

async function objectBytes(key: string) {
  const r = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return new Uint8Array(await r.Body!.transformToByteArray());
}

async function fileBytes(id: string) {
  const res = await fetch(`${env.baseUrl}/v1/renders/${id}/file`, { headers: { "x-api-key": env.key } });
  return { status: res.status, contentType: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function workspaceOf(id: string) {
  const [row] = await sql<{ workspaceId: string; fileKey: string | null }[]>`select workspace_id as "workspaceId", file_key as "fileKey" from renders where id = ${id}`;
  return row!;
}

const objectExists = async (key: string) => {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch (e) {
    if ((e as { name?: string }).name === "NotFound") return false;
    throw e;
  }
};

/** Files the environment's web server or worker wrote to its own disk store (there must be none). */
const localFiles = () => (fs.existsSync(path.join(env.dataDir, "files")) ? fs.readdirSync(path.join(env.dataDir, "files"), { recursive: true }) : []);

describe("S3 file store", () => {
  it("stores a rendered PDF in the bucket and serves the same bytes by link and by /file", { timeout: 60_000 }, async () => {
    // The first render also waits for the environment's worker to start.
    const res = await createRender(env.key, { document: { html: "<h1>Stored in S3</h1>" }, waitMs: 45_000 }, opts());
    expect(res.status, res.text).toBe(200);
    expect(res.body.state, res.text).toBe("succeeded");
    const { id, result } = res.body;
    const { workspaceId, fileKey } = await workspaceOf(id);
    const key = `renders/${workspaceId}/${id}-1.pdf`; // attempt 1
    expect(fileKey).toBe(key);

    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentType).toBe("application/pdf");
    expect(head.ContentLength).toBe(result.outputBytes);
    const stored = await objectBytes(key);
    expect(Buffer.from(stored.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(pdfText(stored)).toContain("Stored in S3");

    const viaLink = await download(result.downloadUrl);
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(viaLink.bytes).equals(Buffer.from(stored))).toBe(true);
    const viaFile = await fileBytes(id);
    expect(viaFile.status).toBe(200);
    expect(viaFile.contentType).toBe("application/pdf");
    expect(Buffer.from(viaFile.bytes).equals(Buffer.from(stored))).toBe(true);

    expect(localFiles()).toEqual([]);
  });

  it("stores images under their own extension and content type", { timeout: 30_000 }, async () => {
    const res = await createRender(env.key, { document: { html: "<p>png</p>" }, format: "png", waitMs: 20_000 }, opts());
    expect(res.body.state, res.text).toBe("succeeded");
    const { workspaceId } = await workspaceOf(res.body.id);
    const key = `renders/${workspaceId}/${res.body.id}-1.png`; // attempt 1
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentType).toBe("image/png");
    const stored = await objectBytes(key);
    expect(stored.byteLength, "the stored image is empty").toBeGreaterThan(0);
    expect(head.ContentLength).toBe(res.body.result.outputBytes);
    expect(imageSize(stored).type).toBe("png");
    const viaLink = await download(res.body.result.downloadUrl);
    expect(Buffer.from(viaLink.bytes).equals(Buffer.from(stored))).toBe(true);
    expect(localFiles()).toEqual([]);
  });

  it("answers 404 NOT_FOUND when the object is gone from the bucket", { timeout: 30_000 }, async () => {
    const res = await createRender(env.key, { document: { html: "<p>to be removed</p>" }, waitMs: 20_000 }, opts());
    expect(res.body.state, res.text).toBe("succeeded");
    const { fileKey } = await workspaceOf(res.body.id);
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: fileKey! }));
    expectError(await api(`/v1/renders/${res.body.id}/file`, { ...opts(), key: env.key }), 404, "NOT_FOUND");
    expectError(await api(new URL(res.body.result.downloadUrl).pathname, opts()), 404, "NOT_FOUND");
  });

  it("retention deletes the render's object from the bucket", { timeout: 60_000 }, async () => {
    const res = await createRender(env.key, { document: { html: "<p>expired</p>" }, waitMs: 20_000 }, opts());
    expect(res.body.state, res.text).toBe("succeeded");
    const keep = await createRender(env.key, { document: { html: "<p>kept</p>" }, waitMs: 20_000 }, opts());
    expect(keep.body.state, keep.text).toBe("succeeded");
    const { fileKey } = await workspaceOf(res.body.id);
    const kept = await workspaceOf(keep.body.id);
    expect(await objectExists(fileKey!)).toBe(true);
    await sql`update renders set created_at = now() - interval '31 days' where id = ${res.body.id}`;

    // The environment's worker runs the retention job as its schedule would.
    const boss = new PgBoss({ connectionString: env.databaseUrl, schema: "pgboss", supervise: false, schedule: false, max: 1 });
    await boss.start();
    try {
      expect(await boss.send("retention", {})).toEqual(expect.any(String));
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
    await expect.poll(() => objectExists(fileKey!), { timeout: 20_000, interval: 250 }).toBe(false);
    expectError(await api(`/v1/renders/${res.body.id}`, { ...opts(), key: env.key }), 404, "NOT_FOUND");
    expect(await objectExists(kept.fileKey!)).toBe(true);
    expect((await fileBytes(keep.body.id)).status).toBe(200);

    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "renders/" }));
    expect(listed.Contents?.map((o) => o.Key)).not.toContain(fileKey);
  });
});
