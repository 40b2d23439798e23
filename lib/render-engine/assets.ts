import crypto from "node:crypto";
import type { Readable } from "node:stream";
import * as fontkit from "fontkit";
import type { AssetRef } from "../assets/refs";
import { assetClass, sniff, type AssetClass } from "../assets/sniff";
import { fileStore } from "../files/store";
import type { PageAssets } from "./browser";
import { RenderFailure, TransientRenderError, type Diagnostic } from "./errors";

/**
 * A render's files (fonts, images, stylesheets), loaded from the file store by the worker before
 * the page is written, checked, and answered to the page from memory (browser.ts). Blobs are
 * content-addressed and never change, so what was loaded, checked and parsed once is kept in an
 * in-process cache for the next render that uses the same file.
 */
export type LoadedAssets = {
  /** What the page's requests under ASSET_ORIGIN are answered with, by asset name. */
  page: PageAssets;
  /** The code points each font asset covers (sorted), for the glyph check (glyphs.ts). */
  fontCodePoints: Uint32Array[];
  /** Each name's label (asset ID or workspace path) and class, for problems the page finds. */
  refs: Map<string, { label: string; class?: AssetClass }>;
};

/** A stored file as the cache keeps it, with what was learnt about it. */
type Blob = {
  bytes: Buffer;
  /** The sniff's problem for each media type it was checked against ("" when none). */
  sniffed: Map<string, string>;
  /** The parsed font: its problem, or the code points it covers. */
  font?: { problem?: string; codePoints: Uint32Array };
};

/** The cache's budget: files and parsed character maps together. */
const CACHE_BYTES = 128 * 1024 * 1024;

const cache = new Map<string, Blob>();
const loading = new Map<string, Promise<Blob | null>>();
let cachedBytes = 0;

const sizeOf = (b: Blob) => b.bytes.byteLength + (b.font?.codePoints.byteLength ?? 0);

function remember(key: string, blob: Blob) {
  const size = sizeOf(blob);
  if (size > CACHE_BYTES / 4) return; // one file may not push out everything else
  cache.set(key, blob);
  cachedBytes += size;
  for (const [k, b] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(k); // Map order is insertion order; a hit re-inserts, so the first is the least recently used
    cachedBytes -= sizeOf(b);
  }
}

/** A stored blob, from the cache or the store (one read however many renders ask at once); null when it is not stored. */
async function blobOf(ref: AssetRef): Promise<Blob | null> {
  const hit = cache.get(ref.key);
  if (hit) {
    cache.delete(ref.key);
    cache.set(ref.key, hit);
    return hit;
  }
  let p = loading.get(ref.key);
  if (!p) {
    p = readBlob(ref).finally(() => loading.delete(ref.key));
    loading.set(ref.key, p);
  }
  return p;
}

async function readBlob(ref: AssetRef): Promise<Blob | null> {
  let file: Awaited<ReturnType<ReturnType<typeof fileStore>["get"]>>;
  let bytes: Buffer;
  try {
    file = await fileStore().get(ref.key);
    if (!file) return null;
    bytes = file.body instanceof Uint8Array ? Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength) : await readAll(file.body, ref.size);
  } catch (err) {
    // why transient: the store being unreachable says nothing about the document.
    throw new TransientRenderError(`The file store could not be read: ${(err as Error).message}`, { cause: err });
  }
  const blob: Blob = { bytes, sniffed: new Map() };
  // why: the key names the content (its sha256); bytes that hash otherwise were damaged in the store.
  if (crypto.createHash("sha256").update(bytes).digest("hex") !== ref.sha256) blob.sniffed.set("*", "does not match its checksum: the stored file is damaged");
  remember(ref.key, blob);
  return blob;
}

async function readAll(stream: Readable, expected: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    n += (chunk as Buffer).length;
    if (n > expected + 1024 * 1024) {
      stream.destroy();
      break; // far larger than registered: the checksum will not match either
    }
  }
  return Buffer.concat(chunks, n);
}

/**
 * Parses a font with fontkit and reads what a browser needs of it (character map, glyph count,
 * metrics, the first and last glyph's outline), so a damaged table is found here rather than as
 * silently missing text. Cached with the blob.
 */
function parseFont(bytes: Buffer): NonNullable<Blob["font"]> {
  try {
    const f = fontkit.create(bytes);
    if ("fonts" in f) return { problem: "is a font collection, which pages cannot use", codePoints: new Uint32Array() };
    const codePoints = Uint32Array.from(f.characterSet).sort();
    if (codePoints.length === 0) return { problem: "is damaged: its font maps no characters", codePoints };
    if (!(f.numGlyphs > 0) || !(f.unitsPerEm > 0)) return { problem: "is damaged: its font has no glyphs or no metrics", codePoints };
    void f.glyphForCodePoint(codePoints[0]!).path;
    void f.getGlyph(f.numGlyphs - 1).path;
    return { codePoints };
  } catch (e) {
    return { problem: `is damaged: its font tables cannot be read (${(e as Error).message.slice(0, 120)})`, codePoints: new Uint32Array() };
  }
}

/** The problem with one file for its declared media type, or "" (cached per media type on the blob). */
function problemOf(blob: Blob, ref: AssetRef, cls: AssetClass | undefined): string {
  const damaged = blob.sniffed.get("*");
  if (damaged) return damaged;
  let p = blob.sniffed.get(ref.mediaType);
  if (p === undefined) {
    p = sniff(blob.bytes, ref.mediaType) ?? "";
    if (!p && cls === "font") {
      blob.font ??= parseFont(blob.bytes);
      p = blob.font.problem ?? "";
    }
    blob.sniffed.set(ref.mediaType, p);
  }
  return p;
}

const nouns: Record<AssetClass, string> = { image: "Image", font: "Font", stylesheet: "Stylesheet" };
const diagnostics: Record<AssetClass, Diagnostic> = { image: "image_invalid", font: "font_invalid", stylesheet: "document_invalid" };

/** "Font brand/Inter.woff2", "Image ast_…": how a message names a file. */
export function fileName(label: string, cls: AssetClass | undefined) {
  return `${cls ? nouns[cls] : "File"} ${label}`;
}

/**
 * The render's files, loaded and checked. A file that is not stored, or whose bytes do not match
 * its media type or are damaged, fails the render with ASSET_INVALID (font_invalid, image_invalid,
 * or document_invalid for a stylesheet), the message naming each such file by its label.
 */
export async function loadAssets(refs: readonly AssetRef[]): Promise<LoadedAssets> {
  const blobs = await Promise.all(refs.map(blobOf));
  const out: LoadedAssets = { page: new Map(), fontCodePoints: [], refs: new Map() };
  const problems: { cls?: AssetClass; text: string }[] = [];
  for (const [i, ref] of refs.entries()) {
    const blob = blobs[i];
    const cls = assetClass(ref.mediaType);
    out.refs.set(ref.name, { label: ref.label, class: cls });
    const problem = blob ? problemOf(blob, ref, cls) : "is no longer stored";
    if (problem) {
      problems.push({ cls, text: `${fileName(ref.label, cls)} ${problem}` });
      continue;
    }
    out.page.set(ref.name, { body: blob!.bytes, contentType: cls === "stylesheet" ? "text/css; charset=utf-8" : ref.mediaType });
    if (blob!.font) out.fontCodePoints.push(blob!.font.codePoints);
  }
  if (problems.length) throw assetFailure(problems);
  return out;
}

/** ASSET_INVALID naming every file; its diagnostic is the first file's (a font's before an image's). */
export function assetFailure(problems: { cls?: AssetClass; text: string }[]): RenderFailure {
  const first = problems.find((p) => p.cls === "font") ?? problems.find((p) => p.cls === "image") ?? problems[0]!;
  return new RenderFailure("ASSET_INVALID", first.cls ? diagnostics[first.cls] : "document_invalid", problems.map((p) => p.text).join("; "));
}

/** Empties the cache (tests). */
export function clearAssetCache() {
  cache.clear();
  cachedBytes = 0;
}
