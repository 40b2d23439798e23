// Test set-up of what templates use: uploaded assets, workspace folders and files, and test images.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AssetKind } from "../db/schema";
import { parsePpm, ppmToPng } from "../render-engine/png";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Who the set-up acts for: a workspace and a key with every scope (TestWorkspace is one), and the
 * server's address where vitest does not provide it (Playwright journeys).
 */
export type Owner = { id: string; key: string; baseUrl?: string };

/**
 * An uploaded, ready asset with these bytes, as a client makes one: POST /v1/assets, then PUT
 * to its upload link with every header it names.
 */
export async function seedAsset(w: Owner, a: { kind: AssetKind; filename: string; mediaType: string; bytes: Uint8Array }): Promise<string> {
  const reg = await post(w, "/v1/assets", { kind: a.kind, filename: a.filename, mediaType: a.mediaType, size: a.bytes.byteLength, sha256: sha256(a.bytes) });
  const { uploadUrl, uploadHeaders } = reg as unknown as { uploadUrl: string; uploadHeaders: Record<string, string> | { name: string; value: string }[] };
  const headers = Array.isArray(uploadHeaders) ? Object.fromEntries(uploadHeaders.map((h) => [h.name, h.value])) : uploadHeaders;
  const put = await fetch(uploadUrl, { method: "PUT", headers, body: Buffer.from(a.bytes) });
  if (put.status !== 200) throw new Error(`upload of ${a.filename}: ${put.status} ${await put.text()}`);
  await checkUnderVitest(w, "PUT", new URL(uploadUrl).pathname, put, await put.json());
  return reg.id;
}

/** Deletes an asset (DELETE /v1/assets/{id}). */
export async function deleteAsset(w: Owner, id: string) {
  await call(w, `/v1/assets/${id}`, undefined, "DELETE");
}

/**
 * One API request with the owner's key. why not ./http: it imports vitest, which Playwright's
 * journeys cannot load; they pass baseUrl, and only vitest's tests ask vitest for it.
 */
async function call(w: Owner, path: string, body?: unknown, method = body === undefined ? "GET" : "POST") {
  const baseUrl = w.baseUrl ?? (await import("vitest")).inject("baseUrl");
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "x-api-key": w.key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  const answer = JSON.parse(text) as { id: string; revision: number };
  await checkUnderVitest(w, method, path, res, answer);
  return answer;
}

/**
 * The OpenAPI check of lib/testing/http.ts for these answers too, in vitest's tests only (an owner
 * without baseUrl): the journeys cannot load the route modules the check builds the document from.
 */
async function checkUnderVitest(w: Owner, method: string, path: string, res: Response, body: unknown) {
  if (w.baseUrl) return;
  const { checkAnswer } = await import("./openapi");
  await checkAnswer(method, path.split("?")[0]!, res.status, res.headers.get("content-type"), body);
}

const post = (w: Owner, path: string, body: unknown, method = "POST") => call(w, path, body, method);

/** A workspace folder (POST /v1/workspace-folders); parentId null: at the top level. */
export async function seedFolder(w: Owner, name: string, parentId: string | null = null): Promise<string> {
  return (await post(w, "/v1/workspace-folders", parentId ? { name, parentId } : { name })).id;
}

/** A text stylesheet in a folder (null: the top level), through POST /v1/workspace-files. */
export async function seedStylesheet(w: Owner, folderId: string | null, name: string, content: string): Promise<string> {
  return (await post(w, "/v1/workspace-files", folderId ? { name, content, folderId } : { name, content })).id;
}

/** A workspace file backed by an uploaded asset, through POST /v1/workspace-files. */
export async function seedAssetFile(w: Owner, folderId: string | null, name: string, assetId: string): Promise<string> {
  return (await post(w, "/v1/workspace-files", folderId ? { name, assetId, folderId } : { name, assetId })).id;
}

/** Saves a text file's new content on its current revision (PUT /v1/workspace-files/{id}/content). */
export async function editStylesheet(w: Owner, fileId: string, content: string) {
  const file = await call(w, `/v1/workspace-files/${fileId}`);
  await post(w, `/v1/workspace-files/${fileId}/content`, { content, expectedRevision: file.revision }, "PUT");
}

/** A solid-colour PNG of w x h pixels. */
export async function solidPng(w: number, h: number, rgb: [number, number, number]): Promise<Buffer> {
  const header = Buffer.from(`P6\n${w} ${h}\n255\n`, "latin1");
  const pixels = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) pixels.set(rgb, i * 3);
  return ppmToPng(Buffer.concat([header, pixels]));
}

/** A woff2 font of @fontsource (installed for tests), by file name. */
export function fontsourceFile(family: "inter" | "merriweather", file: string): Buffer {
  return fs.readFileSync(path.join(process.cwd(), "node_modules", "@fontsource", family, "files", file));
}

/** The colour of the pixel at (x, y) of page `page` of a PDF rasterised at `dpi`. */
export function pdfPixel(pdf: Uint8Array, page: number, x: number, y: number, dpi = 72): [number, number, number] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-px-"));
  try {
    const file = path.join(dir, "doc.pdf");
    fs.writeFileSync(file, pdf);
    const ppm = execFileSync("pdftoppm", ["-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", file], { maxBuffer: 256 * 1024 * 1024 });
    const img = parsePpm(ppm);
    const i = (y * img.width + x) * 3;
    return [img.pixels[i]!, img.pixels[i + 1]!, img.pixels[i + 2]!];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
