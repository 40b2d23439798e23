import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEnvironment, ENVIRONMENT_OWNER, type Environment } from "@/lib/testing/environment";
import { putRaw, registerAsset, sha256Hex, type NewAsset } from "@/lib/testing/assets";
import { signIn } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { S3RVER_KEYS, startS3rver, type TestS3 } from "@/lib/testing/s3";

const BUCKET = "folio-assets";
let s3: TestS3;
let env: Environment;
let key: string;
let sql: postgres.Sql;

beforeAll(async () => {
  s3 = await startS3rver([BUCKET]);
  env = await startEnvironment({
    FILE_STORE: "s3",
    FILE_STORE_S3_ENDPOINT: s3.endpoint,
    FILE_STORE_S3_BUCKET: BUCKET,
    FILE_STORE_S3_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId,
    FILE_STORE_S3_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
    FILE_STORE_S3_FORCE_PATH_STYLE: "true",
    FILE_STORE_S3_REGION: "us-east-1",
  });
  const cookie = await signIn(ENVIRONMENT_OWNER.email, ENVIRONMENT_OWNER.password, env.baseUrl);
  const res = await api("/v1/api-keys", { baseUrl: env.baseUrl, cookie, body: { name: "assets", scopes: ["asset:manage", "audit:read"] } });
  expect(res.status, res.text).toBe(201);
  key = res.body.secret;
  sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await env?.stop();
  await s3?.stop();
});

const opts = () => ({ baseUrl: env.baseUrl });

const objectExists = async (k: string) => {
  try {
    await s3.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: k }));
    return true;
  } catch (e) {
    if ((e as { name?: string }).name === "NotFound") return false;
    throw e;
  }
};

/** The store keys under assets/ the environment wrote to its own disk (there must be none with S3). */
const localAssetFiles = () => (fs.existsSync(path.join(env.dataDir, "files", "assets")) ? fs.readdirSync(path.join(env.dataDir, "files", "assets"), { recursive: true }) : []);

describe("assets on the S3 file store", () => {
  it("uploads into the bucket at assets/<workspace>/<sha256>, serves it by download link, and deletes it with the asset", async () => {
    const a: NewAsset = { kind: "font", mediaType: "font/woff2", filename: "Brand.woff2", bytes: randomBytes(1_500_000) };
    const reg = await registerAsset(key, a, {}, opts());
    expect(reg.status, reg.text).toBe(201);
    expect(reg.body.uploadUrl.startsWith(`${env.baseUrl}/v1/storage/uploads/`)).toBe(true);
    const put = await putRaw(reg.body.uploadUrl, reg.body.uploadHeaders, a.bytes);
    expect(put.status, put.text).toBe(200);

    const got = await api(`/v1/assets/${reg.body.id}`, { ...opts(), key });
    const objectKey = await keyOf(reg.body.id);
    expect(objectKey).toMatch(new RegExp(`^assets/ws_[0-9A-Za-z]+/${sha256Hex(a.bytes)}$`));
    const obj = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: objectKey }));
    expect(Buffer.from(await obj.Body!.transformToByteArray()).equals(Buffer.from(a.bytes))).toBe(true);
    expect(obj.ContentType).toBe("font/woff2");

    const file = await fetch(got.body.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-length")).toBe(String(a.bytes.byteLength));
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(a.bytes))).toBe(true);
    expect(localAssetFiles()).toEqual([]);

    expect((await api(`/v1/assets/${reg.body.id}`, { ...opts(), key, method: "DELETE" })).status).toBe(200);
    await expect.poll(() => objectExists(objectKey), { timeout: 30_000, interval: 250 }).toBe(false);
  });

  it("stores nothing in the bucket when the checksum does not match", async () => {
    const a: NewAsset = { kind: "image", mediaType: "image/png", filename: "x.png", bytes: randomBytes(2000) };
    const reg = await registerAsset(key, a, {}, opts());
    const wrong = randomBytes(2000);
    const put = await putRaw(reg.body.uploadUrl, reg.body.uploadHeaders, wrong);
    expect(put.status, put.text).toBe(400);
    const k = await keyOf(reg.body.id);
    expect(await objectExists(k)).toBe(false);
    expect(await objectExists(k.replace(sha256Hex(a.bytes), sha256Hex(wrong)))).toBe(false);
    expect((await api(`/v1/assets/${reg.body.id}`, { ...opts(), key })).body.state).toBe("pending");
  });
});

/** The store key of an asset's blob, read from the environment's database. */
async function keyOf(assetId: string): Promise<string> {
  const [row] = await sql<{ workspaceId: string; sha256: string }[]>`select workspace_id as "workspaceId", sha256 from assets where id = ${assetId}`;
  return `assets/${row!.workspaceId}/${row!.sha256}`;
}
