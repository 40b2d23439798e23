/**
 * Reading an export a caller sends back (docs/api.md, "Exports and imports"): run in the helper
 * processes (lib/helper-process/jobs.ts), never on the web's event loop. The zip is checked by
 * lib/zip/zip.ts before anything is inflated; then every entry is placed (the manifest, an
 * uploaded file, a template's file, a workspace text file) and checked for what the import would
 * refuse anyway (names, depth, text that is not UTF-8, a file of a template its kind does not have),
 * so the web process gets plain values and each refusal names its entry.
 */
import crypto from "node:crypto";
import { MAX_TEXT_FILE_CHARS } from "../workspace-files/schemas";
import { MAX_FILE_NAME, MAX_FOLDER_DEPTH, MAX_FOLDER_NAME, nameProblem } from "../workspace-files/paths";
import { ArchiveError, ArchiveLimitError, ASSETS_DIR, Manifest, MANIFEST, TEMPLATE_SUFFIX, templateFromFiles, VERSIONS_DIR, type TemplateJson } from "./layout";
import { inflate, readZip, ZipError, ZipLimitError, type ZipLimits } from "../zip/zip";

export type ArchiveLimits = {
  /** The zip's own bytes at most (spec: 20 MB for a report archive, 42 MB for a workspace export). */
  maxZipBytes: number;
  maxEntries: number;
  /** Everything inflated, together. */
  maxInflatedBytes: number;
};

export type ArchiveContents = {
  manifest: Manifest;
  /** Every folder path the archive holds, parents first. */
  folders: string[];
  texts: { path: string; content: string }[];
  /** Templates with their published versions (oldest first), as the archive holds them. */
  templates: { dir: string; folder: string; template: TemplateJson; versions: { version: number; template: TemplateJson }[] }[];
  assets: { id: string; kind: Manifest["assets"][string]["kind"]; mediaType: string; filename: string; sha256: string; size: number; bytes: Uint8Array }[];
  assetFiles: { path: string; assetId: string }[];
};

const parentOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/** A workspace path's names checked as the workspace checks them (folders, then the last as a file's or folder's name). */
function checkPath(path: string, lastIsFile: boolean) {
  const names = path.split("/");
  if (names.length - (lastIsFile ? 1 : 0) > MAX_FOLDER_DEPTH) throw new ArchiveLimitError(`${path}: folders nested deeper than ${MAX_FOLDER_DEPTH}`);
  names.forEach((n, i) => {
    const file = lastIsFile && i === names.length - 1;
    const problem = nameProblem(n, file ? MAX_FILE_NAME : MAX_FOLDER_NAME);
    if (problem) throw new ArchiveError(`${path}: ${JSON.stringify(n)} ${problem}`);
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The archive's contents, checked. Throws ArchiveError (its message names the entry and the rule). */
export function readArchive(bytes: Uint8Array, limits: ArchiveLimits): ArchiveContents {
  if (bytes.byteLength > limits.maxZipBytes) throw new ArchiveLimitError(`The archive has ${bytes.byteLength.toLocaleString("en-US")} bytes; at most ${limits.maxZipBytes.toLocaleString("en-US")}`);
  const zipLimits: ZipLimits = { maxEntries: limits.maxEntries, maxTotalBytes: limits.maxInflatedBytes, maxRatio: 500, maxNameBytes: 1024, caseInsensitive: true };
  const budget = { left: limits.maxInflatedBytes };
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let entries;
  try {
    entries = readZip(buf, zipLimits);
  } catch (e) {
    if (e instanceof ZipLimitError) throw new ArchiveLimitError(`The archive cannot be read: ${e.message}`);
    if (e instanceof ZipError) throw new ArchiveError(`The archive cannot be read: ${e.message}`);
    throw e;
  }
  const read = (e: (typeof entries)[number]) => {
    try {
      return inflate(e, zipLimits, budget);
    } catch (err) {
      if (err instanceof ZipLimitError) throw new ArchiveLimitError(`The archive cannot be read: ${err.message}`);
      if (err instanceof ZipError) throw new ArchiveError(`The archive cannot be read: ${err.message}`);
      throw err;
    }
  };
  const text = (e: (typeof entries)[number]) => {
    try {
      return utf8.decode(read(e));
    } catch (err) {
      if (err instanceof ArchiveError) throw err;
      throw new ArchiveError(`${e.name}: not UTF-8 text (uploaded files belong in ${ASSETS_DIR} and ${MANIFEST})`);
    }
  };
  const manifestEntry = entries.find((e) => e.name === MANIFEST);
  if (!manifestEntry) throw new ArchiveError(`Not a Folio export: it has no ${MANIFEST} at its top`);
  let manifest: Manifest;
  try {
    const parsed = Manifest.safeParse(JSON.parse(text(manifestEntry)));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ArchiveError(`${MANIFEST}: ${issue.path.join(".") || "the file"} ${issue.message}`);
    }
    manifest = parsed.data;
  } catch (e) {
    if (e instanceof ArchiveError) throw e;
    throw new ArchiveError(`${MANIFEST}: not JSON (${(e as Error).message})`);
  }

  const folders = new Set<string>();
  const addFolders = (path: string) => {
    for (let p = path; p; p = parentOf(p)) folders.add(p);
  };
  const texts: ArchiveContents["texts"] = [];
  const templateFiles = new Map<string, Map<string, string>>();
  const assetBytes = new Map<string, Uint8Array>();
  const assetPaths = new Map(Object.entries(manifest.assets).map(([id, a]) => [a.path, id]));
  for (const e of entries) {
    if (e.name === MANIFEST) continue;
    if (e.isFolder) {
      const path = e.name.slice(0, -1);
      if (path === "assets" || path.startsWith(ASSETS_DIR) || path.split("/").some((n) => n.endsWith(TEMPLATE_SUFFIX))) continue;
      checkPath(path, false);
      addFolders(path);
      continue;
    }
    if (e.name.startsWith(ASSETS_DIR)) {
      const id = assetPaths.get(e.name);
      // A file a person added beside the uploads (a README) is not one of them: left out.
      if (id) assetBytes.set(id, read(e));
      continue;
    }
    const segments = e.name.split("/");
    const at = segments.findIndex((s) => s.endsWith(TEMPLATE_SUFFIX));
    if (at >= 0) {
      const dir = segments.slice(0, at + 1).join("/");
      if (at > 0) {
        checkPath(segments.slice(0, at).join("/"), false);
        addFolders(segments.slice(0, at).join("/"));
      }
      let files = templateFiles.get(dir);
      if (!files) templateFiles.set(dir, (files = new Map()));
      files.set(segments.slice(at + 1).join("/"), text(e));
      continue;
    }
    checkPath(e.name, true);
    const content = text(e);
    if (content.length > MAX_TEXT_FILE_CHARS) throw new ArchiveLimitError(`${e.name}: more than ${MAX_TEXT_FILE_CHARS.toLocaleString("en-US")} characters`);
    addFolders(parentOf(e.name));
    texts.push({ path: e.name, content });
  }
  const templates = [...templateFiles].map(([dir, files]) => {
    const own = new Map<string, string>();
    const versions = new Map<number, Map<string, string>>();
    for (const [file, content] of files) {
      const v = new RegExp(`^${VERSIONS_DIR}(\\d{1,6})/(.+)$`).exec(file);
      if (!v) own.set(file, content);
      else {
        const n = Number(v[1]);
        if (!versions.has(n)) versions.set(n, new Map());
        versions.get(n)!.set(v[2]!, content);
      }
    }
    return {
      dir,
      folder: parentOf(dir),
      template: templateFromFiles(dir, own),
      versions: [...versions].sort(([a], [b]) => a - b).map(([version, vf]) => ({ version, template: templateFromFiles(`${dir}/${VERSIONS_DIR}${version}`, vf) })),
    };
  });
  const assets: ArchiveContents["assets"] = Object.entries(manifest.assets).map(([id, a]) => {
    const b = assetBytes.get(id);
    if (!b) throw new ArchiveError(`${MANIFEST}: asset ${id} is at ${a.path}, which the archive does not hold`);
    return { id, kind: a.kind, mediaType: a.mediaType, filename: a.filename, size: b.byteLength, sha256: crypto.createHash("sha256").update(b).digest("hex"), bytes: b };
  });
  const assetFiles = Object.entries(manifest.assetFiles).map(([path, assetId]) => {
    if (!manifest.assets[assetId]) throw new ArchiveError(`${MANIFEST}: the file ${path} names asset ${assetId}, which the archive does not hold`);
    checkPath(path, true);
    addFolders(parentOf(path));
    return { path, assetId };
  });
  const all = [...texts.map((t) => t.path), ...assetFiles.map((f) => f.path)];
  const seen = new Set<string>();
  for (const p of all) {
    if (seen.has(p.toLowerCase())) throw new ArchiveError(`${p}: two files of that name (names are compared ignoring letter case)`);
    seen.add(p.toLowerCase());
  }
  // A folder holds one thing of each name, ignoring letter case, as the workspace's folders do.
  const folderNames = new Map<string, string>();
  for (const f of folders) {
    const other = folderNames.get(f.toLowerCase());
    if (other !== undefined) throw new ArchiveError(`${f}: the folders ${other} and ${f} differ only in letter case`);
    folderNames.set(f.toLowerCase(), f);
    if (seen.has(f.toLowerCase())) throw new ArchiveError(`${f}: a file and a folder of the same name`);
  }
  return { manifest, folders: [...folders].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b)), texts, templates, assets, assetFiles };
}
