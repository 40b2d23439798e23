/**
 * A template's stylesheets loaded for rendering (spec: Composition > stylesheets; Limits >
 * Templates and workspace files): each path resolved from the template's folder to a text/css
 * workspace file (a text file, or an uploaded stylesheet), its `@import`s of other workspace
 * stylesheets inlined in place (nesting <= 20, no cycles), and its `url()`s of uploaded files
 * (fonts, images) rewritten to the asset origin, each with the AssetRef the worker serves it by.
 * Paths inside a stylesheet resolve from that stylesheet's folder.
 *
 * Every file that cannot be used is reported at once: 400 ASSET_INVALID with one `details[]`
 * entry per problem, its `path` the stylesheet of the composition it was reached from.
 */
import { assetUrl, blobKey, type AssetRef } from "../documents/asset-refs";
import type { Executor } from "../db/client";
import type { WorkspaceFileRow } from "../db/schema";
import { AppError, limitExceeded, type ErrorDetail } from "../errors";
import { fileStore } from "../files/store";
import { cssRefs, isWorkspacePath, type CssRef } from "./css-urls";
import { filesAtPaths, folderTree } from "./lookup";

/** spec: Limits > Templates and workspace files. */
export const STYLESHEET_LIMITS = {
  /** Workspace files one template references (stylesheets, their imports, the files their url()s name). */
  referencedFiles: 100,
  /** @import nesting below a template's stylesheet. */
  importDepth: 20,
  /** Characters of one stylesheet. */
  stylesheetChars: 1_000_000,
  /** Template source with all included files, in bytes (spec: 5 MB). */
  sourceBytes: 5_000_000,
} as const;

export const sourceLimitExceeded = () =>
  limitExceeded(`The template source with all included files is larger than 5 MB (the limit of template source with included files)`);

/** What the loader needs to know of an uploaded file. */
export type AssetInfo = { id: string; kind?: string; mediaType: string; size: number; sha256: string; state: string };
/** The workspace's assets among `ids` (absent when unknown). */
export type AssetLookup = (ids: string[]) => Promise<AssetInfo[]>;

export type LoadedStylesheets = {
  /** The final CSS of each stylesheet, in the order named. */
  css: string[];
  /** The uploaded files the stylesheets' url()s name, one per blob; label is the workspace path. */
  assets: AssetRef[];
  /** Distinct workspace files referenced. */
  files: number;
  /** UTF-8 bytes of the final CSS (an import counts each time it is included). */
  sourceBytes: number;
};

type Loaded = {
  row: WorkspaceFileRow;
  /** Full path from the workspace's root, as errors show it. */
  path: string;
  /** Text of a stylesheet (text/css files only, read once). */
  css?: string;
  /** Its references to workspace paths, each with what the path resolved to. */
  refs?: { ref: CssRef; importing: boolean; path: string; fileId?: string }[];
};

const charsetRule = /^\uFEFF?\s*@charset\s+"[^"]*"\s*;/i;

/**
 * Loads the stylesheets at `paths`, seen from `folderId` (the template's folder; null is the
 * root). `field` is the request field the paths came from (details name `field.<index>`).
 */
export async function loadStylesheets(
  ex: Executor,
  workspaceId: string,
  folderId: string | null,
  paths: readonly string[],
  lookupAssets: AssetLookup,
  field = "composition.stylesheets",
): Promise<LoadedStylesheets> {
  if (paths.length === 0) return { css: [], assets: [], files: 0, sourceBytes: 0 };
  const tree = await folderTree(ex, workspaceId);
  const files = new Map<string, Loaded>();
  const problems = new Problems(field);

  const top = await filesAtPaths(ex, workspaceId, tree, folderId, paths);
  top.forEach((r, i) => {
    if (!r.file) problems.add(i, `${paths[i]}: no workspace file ${r.path || paths[i]}`);
    else if (r.file.mediaType !== "text/css") problems.add(i, `${r.path} is not a stylesheet (${r.file.mediaType})`);
    else if (!files.has(r.file.id)) files.set(r.file.id, { row: r.file, path: r.path });
  });
  problems.throwIfAny();

  // Level by level: read the stylesheets found, then resolve what they name (one query per folder).
  let pending = [...files.values()];
  const queued = new Set(pending.map((f) => f.row.id));
  while (pending.length) {
    await readTexts(workspaceId, pending, lookupAssets);
    const next: Loaded[] = [];
    for (const [fromFolder, group] of groupBy(pending, (f) => f.row.folderId)) {
      const wanted = group.flatMap((f) => workspaceRefs(f));
      const resolved = await filesAtPaths(ex, workspaceId, tree, fromFolder, wanted.map((w) => w.target));
      wanted.forEach((w, i) => {
        const r = resolved[i]!;
        w.owner.refs!.push({ ref: w.ref, importing: w.importing, path: r.path || w.target, fileId: r.file?.id });
        if (!r.file) return;
        let loaded = files.get(r.file.id);
        if (!loaded) {
          loaded = { row: r.file, path: r.path };
          files.set(r.file.id, loaded);
          if (files.size > STYLESHEET_LIMITS.referencedFiles) {
            throw limitExceeded(`The template references more than ${STYLESHEET_LIMITS.referencedFiles} workspace files (the limit of workspace files one template references)`);
          }
        }
        if (w.importing && r.file.mediaType === "text/css" && !queued.has(r.file.id)) {
          queued.add(r.file.id);
          next.push(loaded);
        }
      });
    }
    pending = next;
  }

  const assetIds = [...files.values()].filter((f) => f.row.kind === "asset" && f.css === undefined && f.row.assetId).map((f) => f.row.assetId!);
  const assetsById = new Map((assetIds.length ? await lookupAssets([...new Set(assetIds)]) : []).map((a) => [a.id, a]));
  const refs = new Map<string, AssetRef>();
  // why: a file imported from several places is assembled once; the output is capped, so
  // imports that multiply (a imports b twice, b imports c twice, ...) stop at the source limit.
  const assembled = new Map<string, string>();

  const assemble = (f: Loaded, stack: string[], topIndex: number): string => {
    const done = assembled.get(f.row.id);
    if (done !== undefined) return done;
    const css = f.css!;
    let out = "";
    let from = 0;
    for (const r of f.refs ?? []) {
      const target = r.fileId ? files.get(r.fileId) : undefined;
      const where = `${f.path}: ${r.importing ? "@import" : "url()"} of ${r.ref.url}`;
      if (r.importing) {
        const statement = importStatement(css, r.ref);
        out += css.slice(from, statement.start);
        from = statement.end;
        if (!target) {
          problems.add(topIndex, `${where} names no workspace file (${r.path})`);
          continue;
        }
        if (target.row.mediaType !== "text/css") {
          problems.add(topIndex, `${where} names ${target.path}, which is not a stylesheet (${target.row.mediaType})`);
          continue;
        }
        const cycle = stack.indexOf(target.row.id);
        if (cycle >= 0) {
          const chain = [...stack.slice(cycle), target.row.id].map((id) => files.get(id)!.path).join(" -> ");
          problems.add(topIndex, `${target.path} imports itself: ${chain}`);
          continue;
        }
        if (stack.length > STYLESHEET_LIMITS.importDepth) {
          throw limitExceeded(`Stylesheet imports nest deeper than ${STYLESHEET_LIMITS.importDepth} levels (at ${target.path})`, {
            details: [{ path: `${field}.${topIndex}`, message: `imports nest deeper than ${STYLESHEET_LIMITS.importDepth} levels at ${target.path}` }],
          });
        }
        out += statement.wrap(assemble(target, [...stack, target.row.id], topIndex));
        if (out.length > STYLESHEET_LIMITS.sourceBytes) throw sourceLimitExceeded();
        continue;
      }
      out += css.slice(from, r.ref.start);
      from = r.ref.end;
      const asset = target?.row.assetId ? assetsById.get(target.row.assetId) : undefined;
      if (!target) problems.add(topIndex, `${where} names no workspace file (${r.path})`);
      else if (target.row.kind !== "asset") problems.add(topIndex, `${where} names ${target.path}, a text file; url() takes uploaded files (fonts, images)`);
      else if (!asset || asset.state !== "ready") problems.add(topIndex, `${where} names ${target.path}, whose upload is missing or not finished`);
      else {
        if (!refs.has(asset.sha256)) {
          refs.set(asset.sha256, { name: asset.sha256, key: blobKey(workspaceId, asset.sha256), mediaType: asset.mediaType, size: asset.size, sha256: asset.sha256, label: target.path });
        }
        out += `url("${assetUrl(asset.sha256)}${fragmentOf(r.ref.url)}")`;
        continue;
      }
      out += r.ref.url.startsWith("data:") ? css.slice(r.ref.start, r.ref.end) : "url()";
    }
    out += css.slice(from);
    assembled.set(f.row.id, out);
    return out;
  };

  const css = top.map((r, i) => assemble(files.get(r.file!.id)!, [r.file!.id], i));
  problems.throwIfAny();
  const sourceBytes = css.reduce((n, text) => n + Buffer.byteLength(text), 0);
  if (sourceBytes > STYLESHEET_LIMITS.sourceBytes) throw sourceLimitExceeded();
  return { css, assets: [...refs.values()], files: files.size, sourceBytes };
}

/** The problems found, each at the composition's stylesheet it was reached from; reported together. */
class Problems {
  private readonly details: ErrorDetail[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly field: string) {}

  add(index: number, message: string) {
    const key = `${index}\n${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.details.push({ path: `${this.field}.${index}`, message });
  }

  throwIfAny() {
    if (this.details.length === 0) return;
    const [first] = this.details;
    const more = this.details.length > 1 ? ` (and ${this.details.length - 1} more problem${this.details.length > 2 ? "s" : ""})` : "";
    throw new AppError("ASSET_INVALID", `A stylesheet of the template cannot be used: ${first!.message}${more}`, { details: this.details.slice(0, 100) });
  }
}

/** Reads the text of stylesheets (text files from their row, uploaded ones from the file store). */
async function readTexts(workspaceId: string, pending: Loaded[], lookupAssets: AssetLookup) {
  const uploaded = pending.filter((f) => f.row.kind === "asset" && f.row.assetId);
  const assets = new Map((uploaded.length ? await lookupAssets([...new Set(uploaded.map((f) => f.row.assetId!))]) : []).map((a) => [a.id, a]));
  await Promise.all(
    pending.map(async (f) => {
      let text: string;
      if (f.row.kind === "text") text = f.row.content ?? "";
      else {
        const asset = assets.get(f.row.assetId ?? "");
        if (!asset || asset.state !== "ready") throw assetInvalid(`Stylesheet ${f.path} has no finished upload`, f.path);
        // why: UTF-8 takes at most 4 bytes a character, so a larger file is over the limit unread.
        if (asset.size > STYLESHEET_LIMITS.stylesheetChars * 4) throw tooLong(f.path);
        const bytes = await readBlob(blobKey(workspaceId, asset.sha256));
        if (!bytes) throw assetInvalid(`Stylesheet ${f.path}: its uploaded file is missing from the file store`, f.path);
        text = new TextDecoder().decode(bytes);
      }
      if (text.length > STYLESHEET_LIMITS.stylesheetChars) throw tooLong(f.path);
      f.css = text.replace(charsetRule, "");
      f.refs = [];
    }),
  );
}

const assetInvalid = (message: string, path: string) => new AppError("ASSET_INVALID", message, { details: [{ message: `${path}: ${message}` }] });
const tooLong = (path: string) => limitExceeded(`Stylesheet ${path} is longer than ${STYLESHEET_LIMITS.stylesheetChars.toLocaleString("en-US")} characters`);

async function readBlob(key: string): Promise<Uint8Array | null> {
  const file = await fileStore().get(key);
  if (!file) return null;
  if (file.body instanceof Uint8Array) return file.body;
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The workspace paths a loaded stylesheet names, with whether each is an import. */
function workspaceRefs(f: Loaded): { owner: Loaded; ref: CssRef; importing: boolean; target: string }[] {
  const out: { owner: Loaded; ref: CssRef; importing: boolean; target: string }[] = [];
  for (const ref of cssRefs(f.css!)) {
    if (!isWorkspacePath(ref.url)) continue;
    const importing = ref.kind === "import" || /@import\s*$/i.test(f.css!.slice(Math.max(0, ref.start - 40), ref.start));
    out.push({ owner: f, ref, importing, target: pathOf(ref.url) });
  }
  return out;
}

/** The path part of a reference: without query and fragment, percent-decoded when that is valid. */
function pathOf(url: string): string {
  const bare = url.replace(/[?#].*$/s, "");
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

/** An SVG fragment (`#logo`) is kept on the rewritten URL; a query is dropped. */
function fragmentOf(url: string): string {
  const i = url.indexOf("#");
  return i >= 0 ? encodeURI(decodeURIComponentSafe(url.slice(i))) : "";
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The whole `@import ...;` statement around a reference, and how to wrap the imported text so it
 * keeps the statement's conditions: `layer`/`layer(name)`, `supports(...)` and a media query list
 * become `@layer`, `@supports` and `@media` blocks.
 */
export function importStatement(css: string, ref: CssRef): { start: number; end: number; wrap: (inner: string) => string } {
  const start = ref.kind === "import" ? ref.start : css.lastIndexOf("@", ref.start);
  const semi = css.indexOf(";", ref.end);
  const end = semi < 0 ? css.length : semi + 1;
  let rest = css.slice(ref.end, semi < 0 ? css.length : semi).trim();
  let layer: string | undefined;
  let supports: string | undefined;
  const layerMatch = /^layer(?:\(\s*([\w.-]+)\s*\))?(?=\s|$|[a-z(])/i.exec(rest);
  if (layerMatch) {
    layer = layerMatch[1] ?? "";
    rest = rest.slice(layerMatch[0].length).trim();
  }
  if (/^supports\(/i.test(rest)) {
    let depth = 0;
    let i = "supports".length;
    for (; i < rest.length; i++) {
      if (rest[i] === "(") depth++;
      else if (rest[i] === ")" && --depth === 0) break;
    }
    const condition = rest.slice("supports(".length, i).trim();
    supports = /^[a-z-]+\s*\(|^\(/i.test(condition) ? condition : `(${condition})`;
    rest = rest.slice(i + 1).trim();
  }
  const media = rest;
  return {
    start,
    end,
    wrap: (inner) => {
      let out = `\n${inner}\n`;
      if (media) out = `@media ${media}{${out}}`;
      if (supports) out = `@supports ${supports}{${out}}`;
      if (layer !== undefined) out = `@layer${layer ? ` ${layer}` : ""}{${out}}`;
      return out;
    },
  };
}

function groupBy<T, K>(items: T[], key: (t: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
