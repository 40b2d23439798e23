// Test set-up of what templates use: uploaded assets, workspace folders and files, and test images.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { blobKey } from "../assets/refs";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { assetBlobs, assets, type AssetKind } from "../db/schema";
import { fileStore } from "../files/store";
import { parsePpm, ppmToPng } from "../render-engine/png";
import { api } from "./http";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** An uploaded, ready asset of the workspace with these bytes (stored once per content). */
export async function seedAsset(w: Owner, a: { kind: AssetKind; filename: string; mediaType: string; bytes: Uint8Array }): Promise<string> {
  const workspaceId = w.id;
  const sha = sha256(a.bytes);
  const key = blobKey(workspaceId, sha);
  await fileStore().put(key, a.bytes, a.mediaType);
  await db()
    .insert(assetBlobs)
    .values({ workspaceId, sha256: sha, size: a.bytes.byteLength, mediaType: a.mediaType, storageKey: key })
    .onConflictDoNothing();
  const id = newId("ast");
  await db().insert(assets).values({
    id,
    workspaceId,
    kind: a.kind,
    filename: a.filename,
    mediaType: a.mediaType,
    size: a.bytes.byteLength,
    sha256: sha,
    state: "ready",
    createdByType: "system",
    createdById: "test",
    uploadedAt: new Date(),
  });
  return id;
}

/**
 * Who the set-up acts for: a workspace and a key with every scope (TestWorkspace is one), and the
 * server's address where vitest does not provide it (Playwright journeys).
 */
export type Owner = { id: string; key: string; baseUrl?: string };

async function post(w: Owner, path: string, body: unknown, method = "POST") {
  const res = await api(path, { key: w.key, method, body, baseUrl: w.baseUrl });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body as { id: string; revision: number };
}

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
  const file = await api(`/v1/workspace-files/${fileId}`, { key: w.key, baseUrl: w.baseUrl });
  await post(w, `/v1/workspace-files/${fileId}/content`, { content, expectedRevision: file.body.revision }, "PUT");
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
