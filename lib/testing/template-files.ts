// Test set-up of what templates use: uploaded assets, workspace folders and files, and test images.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { blobKey } from "../assets/refs";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { assetBlobs, assets, workspaceFiles, workspaceFolders, type AssetKind } from "../db/schema";
import { fileStore } from "../files/store";
import { parsePpm, ppmToPng } from "../render-engine/png";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** An uploaded, ready asset of the workspace with these bytes (stored once per content). */
export async function seedAsset(workspaceId: string, a: { kind: AssetKind; filename: string; mediaType: string; bytes: Uint8Array }): Promise<string> {
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

export async function seedFolder(workspaceId: string, name: string, parentId: string | null = null): Promise<string> {
  const id = newId("fld");
  await db().insert(workspaceFolders).values({ id, workspaceId, parentId, name });
  return id;
}

/** A text stylesheet (text/css) in a folder (null: the root). */
export async function seedStylesheet(workspaceId: string, folderId: string | null, name: string, content: string): Promise<string> {
  const id = newId("fil");
  await db().insert(workspaceFiles).values({
    id,
    workspaceId,
    folderId,
    name,
    kind: "text",
    content,
    mediaType: "text/css",
    size: Buffer.byteLength(content),
    updatedByType: "system",
    updatedById: "test",
  });
  return id;
}

/** A workspace file backed by an uploaded asset. */
export async function seedAssetFile(workspaceId: string, folderId: string | null, name: string, assetId: string, mediaType: string, size: number): Promise<string> {
  const id = newId("fil");
  await db().insert(workspaceFiles).values({ id, workspaceId, folderId, name, kind: "asset", assetId, mediaType, size, updatedByType: "system", updatedById: "test" });
  return id;
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
