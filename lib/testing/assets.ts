import { createHash } from "node:crypto";
import http from "node:http";
import { expect } from "vitest";
import { registerAsset as registerVerb } from "../assets";
import { uploadAsset as uploadVerb } from "../assets/upload";
import { systemCtx } from "../auth/context";
import type { AssetKind } from "../db/schema";
import { api, type ApiOptions, type ApiResponse } from "./http";

export const sha256Hex = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

export type NewAsset = { kind: AssetKind; mediaType: string; filename?: string; bytes: Uint8Array };

/** A tiny valid PNG (1 x 1, red), for tests that need an image. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/** POST /v1/assets for these bytes (size and sha256 computed); `override` changes any field sent. */
export function registerAsset(key: string | undefined, a: NewAsset, override: Record<string, unknown> = {}, opts: ApiOptions = {}) {
  const body = { kind: a.kind, filename: a.filename ?? `file-${a.kind}`, mediaType: a.mediaType, size: a.bytes.byteLength, sha256: sha256Hex(a.bytes), ...override };
  return api("/v1/assets", { ...opts, key, body });
}

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string; body?: { error?: { code: string; message: string; details?: { path?: string; message: string }[] } } & Record<string, unknown> };

/**
 * One PUT (or another method) with exactly these headers and body, over node:http so that nothing
 * is added (fetch would set content-length and content-type itself). A server that answers before
 * reading the whole body may close the connection: the answer is still returned.
 */
export function putRaw(url: string, headers: Record<string, string>, body: Uint8Array | string, method = "PUT"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        let parsed: RawAnswer["body"];
        if (res.headers["content-type"]?.includes("application/json")) parsed = JSON.parse(text) as RawAnswer["body"];
        resolve({ status: res.statusCode!, headers: res.headers, text, body: parsed });
      });
      res.on("error", reject);
    });
    // why ignore write errors: the server may refuse and close before the body is sent; its answer counts.
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
    req.end(body);
  });
}

/** Registers and uploads an asset through the API; returns the ready asset. */
export async function uploadAsset(key: string, a: NewAsset, opts: ApiOptions = {}): Promise<{ id: string; sha256: string; size: number } & Record<string, unknown>> {
  const reg: ApiResponse = await registerAsset(key, a, {}, opts);
  expect(reg.status, reg.text).toBe(201);
  const put = await putRaw(reg.body.uploadUrl, reg.body.uploadHeaders, a.bytes);
  expect(put.status, put.text).toBe(200);
  return put.body as { id: string; sha256: string; size: number };
}

/**
 * A ready asset made through the verbs in the test process (no HTTP): the bytes land in the same
 * file store as the server's (the test process shares its DATA_DIR or bucket settings).
 */
export async function readyAssetDirect(workspaceId: string, a: NewAsset) {
  const reg = await registerVerb(systemCtx(workspaceId, "test"), {
    kind: a.kind,
    filename: a.filename ?? `file-${a.kind}`,
    mediaType: a.mediaType,
    size: a.bytes.byteLength,
    sha256: sha256Hex(a.bytes),
  });
  const token = new URL(reg.uploadUrl).pathname.split("/").pop()!;
  const headers: Record<string, string> = reg.uploadHeaders;
  return uploadVerb(token, {
    header: (name) => headers[name],
    body: (async function* () {
      yield a.bytes;
    })(),
  });
}
