import crypto from "node:crypto";
import type { Readable } from "node:stream";
import type { AssetRef } from "../documents/asset-refs";
import { assetClass, sniff, type AssetClass } from "../assets/sniff";
import { fileStore } from "../files/store";
import type { PageAssets } from "./browser";
import { RenderFailure, TransientRenderError, type Diagnostic } from "./errors";
import type { ParsedFont } from "./font-parse";
import { parseFontInHelper } from "./helpers";
import { HelperLimitError } from "../offload/pool";

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
  font?: ParsedFont;
  /** The parse under way, so renders that load the same font at once parse it once. */
  parsing?: Promise<ParsedFont>;
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
 * A font parsed in a font helper process (font-parse.ts, helpers.ts) and what it found, cached
 * with the blob. A parse that runs past the helper's time or memory limit rejects with
 * HelperLimitError and is not cached (a loaded machine may be slow once); a helper that cannot
 * start is the machinery's failure (worth another attempt).
 */
async function fontOf(blob: Blob): Promise<ParsedFont> {
  if (blob.font) return blob.font;
  blob.parsing ??= parseFontInHelper(blob.bytes)
    .then((font) => (blob.font = font))
    .catch((e: unknown) => {
      if (e instanceof HelperLimitError && e.limit === "start") throw new TransientRenderError(`Fonts could not be read: ${e.message}`, { cause: e });
      throw e;
    })
    .finally(() => (blob.parsing = undefined));
  return blob.parsing;
}

/** The problem with one file for its declared media type, or "" (cached per media type on the blob). */
async function problemOf(blob: Blob, ref: AssetRef, cls: AssetClass | undefined): Promise<string> {
  const damaged = blob.sniffed.get("*");
  if (damaged) return damaged;
  const known = blob.sniffed.get(ref.mediaType);
  if (known !== undefined) return known;
  const sniffed = sniff(blob.bytes, ref.mediaType) ?? "";
  if (sniffed || cls !== "font") {
    blob.sniffed.set(ref.mediaType, sniffed);
    return sniffed;
  }
  const font = await fontOf(blob);
  blob.sniffed.set(ref.mediaType, font.problem ?? "");
  return font.problem ?? "";
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
 * or document_invalid for a stylesheet), the message naming each such file by its label. A font
 * whose parse needs more than its helper's memory or time fails it with RENDER_FAILED and
 * render_process_exited (spec: Limits > Renders, other working memory), naming the font.
 */
export async function loadAssets(refs: readonly AssetRef[]): Promise<LoadedAssets> {
  const blobs = await Promise.all(refs.map(blobOf));
  // Fonts are parsed in their helpers at once; the verdicts are then read in the refs' order.
  const found = await Promise.all(
    refs.map(async (ref, i) => {
      const blob = blobs[i];
      if (!blob) return "is no longer stored";
      const cls = assetClass(ref.mediaType);
      try {
        return await problemOf(blob, ref, cls);
      } catch (e) {
        if (!(e instanceof HelperLimitError)) throw e;
        throw new RenderFailure("RENDER_FAILED", "render_process_exited", `${fileName(ref.label, cls)} could not be read: ${e.message}`);
      }
    }),
  );
  const out: LoadedAssets = { page: new Map(), fontCodePoints: [], refs: new Map() };
  const problems: { cls?: AssetClass; text: string }[] = [];
  for (const [i, ref] of refs.entries()) {
    const blob = blobs[i];
    const cls = assetClass(ref.mediaType);
    out.refs.set(ref.name, { label: ref.label, class: cls });
    const problem = found[i]!;
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
