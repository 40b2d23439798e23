import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

// s3rver ships no types; only these members are used.
type S3rverServer = { run(): Promise<{ address: string; port: number }>; close(): Promise<void> };
type S3rverOptions = { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] };
const S3rver = createRequire(__filename)("s3rver") as new (options: S3rverOptions) => S3rverServer;

/** s3rver's only key pair: it checks signatures, so other keys answer InvalidAccessKeyId or SignatureDoesNotMatch. */
export const S3RVER_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export type TestS3 = {
  endpoint: string;
  client: S3Client;
  /** The object's bytes, or null when there is none. */
  object: (bucket: string, key: string) => Promise<Uint8Array | null>;
  keys: (bucket: string, prefix?: string) => Promise<string[]>;
  stop: () => Promise<void>;
};

/** A real S3-compatible server (s3rver) on loopback with the given buckets, and a client for reading back what landed. */
export async function startS3rver(buckets: string[]): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // why a copy: the SDK marks the credentials object it is given (a $source field).
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: { ...S3RVER_KEYS } });
  return {
    endpoint,
    client,
    object: async (bucket, key) => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch {
        return null;
      }
      const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return new Uint8Array(await r.Body!.transformToByteArray());
    },
    keys: async (bucket, prefix) => ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!),
    stop: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A request the scripted server received. */
export type S3Request = { method: string; path: string; key: string; accessKeyId: string | undefined; bytes: number };
/** What the scripted server answers: 200 (default), or an S3 error. `hold` delays the answer until it resolves. */
export type S3Answer = { status: number; code?: string; message?: string; hold?: Promise<unknown> } | undefined;

export type ScriptedS3 = {
  endpoint: string;
  requests: S3Request[];
  /** Decides each answer; replace it between steps of a test. Default: every request succeeds. */
  script: (req: S3Request, index: number) => S3Answer;
  stop: () => Promise<void>;
};

/**
 * A tiny S3-speaking HTTP server on loopback whose answers a test scripts (throttling, 503 then
 * 200, AccessDenied on delete only...): a real HTTP peer of the SDK, not a mock of it. Path-style
 * requests only (forcePathStyle true); it checks no signatures.
 */
export async function startScriptedS3(): Promise<ScriptedS3> {
  const state: ScriptedS3 = { endpoint: "", requests: [], script: () => undefined, stop: async () => {} };
  const server = http.createServer((req, res) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://x");
      const parts = url.pathname.split("/").slice(2).map(decodeURIComponent);
      const accessKeyId = /Credential=([^/]+)\//.exec(req.headers.authorization ?? "")?.[1];
      const r: S3Request = { method: req.method ?? "", path: url.pathname, key: parts.join("/"), accessKeyId, bytes };
      state.requests.push(r);
      const answer = state.script(r, state.requests.length - 1);
      if (answer?.hold) await answer.hold;
      if (!answer || answer.status < 300) {
        res.writeHead(req.method === "DELETE" ? 204 : 200, { etag: '"0123456789abcdef0123456789abcdef"', "x-amz-request-id": "test" });
        return res.end();
      }
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${answer.code ?? "InternalError"}</Code><Message>${answer.message ?? "scripted failure"}</Message><RequestId>test</RequestId></Error>`;
      res.writeHead(answer.status, { "content-type": "application/xml", "x-amz-request-id": "test" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
