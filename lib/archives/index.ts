/**
 * Exports and imports (docs/api.md, "Exports and imports"; issue 35): a folder or the whole
 * workspace as a zip of readable files (layout.ts) that a person keeps in git, and that zip, or a
 * report archive of the same layout, put back into a workspace. The caller's zip is read in the
 * archive helpers (read.ts, lib/offload: contained, bounded, fair turns); the web process plans
 * what would change (inspect), then writes it in one transaction, or nothing. One import or export
 * at a time per workspace (429 without Retry-After).
 */
import { z } from "zod";
import { lockAssetStorage, MAX_ASSET_BYTES } from "../assets";
import { kindMediaTypes } from "../assets/kinds";
import { filenameProblem } from "../assets/schemas";
import { insertAsset, insertBlob, maxStorageBytes, storedBytes } from "../assets/repository";
import { recordAudit } from "../audit";
import { actorRef, hasScope, requireScope, type Ctx } from "../auth/context";
import { db, withTx, type Tx } from "../db/client";
import { newId } from "../db/ids";
import type { TemplateKind } from "../db/schema";
import { blobKey } from "../documents/asset-refs";
import { AppError, isAppError, notFound } from "../errors";
import { bytesOf, fileStore } from "../files/store";
import { HelperPool } from "../offload/pool";
import { isHelperJobError, isHelperLimitError, isPoolBusyError } from "../processes/pool";
import { currentTenant } from "../processes/tenant";
import { parseContentOf, publishInTx } from "../templates";
import { checkHandlebarsSyntax } from "../templates/handlebars";
import { parseHandlebarsContent } from "../templates/handlebars-schema";
import { checkWorkbookBytes, checkWorkbookTemplate, parseWorkbookContent } from "../templates/workbook";
import * as templatesRepo from "../templates/repository";
import { folderTree, lockWorkspaceFiles, type FolderTree } from "../workspace-files";
import * as filesRepo from "../workspace-files/repository";
import { textMediaType } from "../workspace-files/schemas";
import { MAX_FOLDER_DEPTH } from "../workspace-files/paths";
import { ASSET_ID, ASSETS_DIR, MANIFEST, safeName, TEMPLATE_SUFFIX, templateFiles, VERSIONS_DIR, type Manifest } from "./layout";
import type { ArchiveContents, ArchiveLimits } from "./read";
import * as repo from "./repository";

export { ArchiveError } from "./layout";

/** spec: Limits > Imports and exports: a report archive 20 MB, 10,000 entries; a workspace export 42 MB. */
export const REPORT_ARCHIVE_LIMITS: ArchiveLimits = { maxZipBytes: 20_000_000, maxEntries: 10_000, maxInflatedBytes: 200_000_000 };
export const WORKSPACE_ARCHIVE_LIMITS: ArchiveLimits = { maxZipBytes: 42_000_000, maxEntries: 10_000, maxInflatedBytes: 400_000_000 };

const Id = z.string().min(1).max(128);

/** POST /v1/reports/import and /v1/workspace-folders/import (and the inspect of either). */
export const ImportInput = z.strictObject({
  /** The zip, base64 (spec: bodies are JSON). */
  archive: z.base64().meta({ description: "The zip archive (an export), base64-encoded" }),
  /** The folder the archive's top goes into; absent or null: the workspace's root. */
  folderId: Id.nullable().optional(),
  /** What happens to a template or file whose name is taken in its folder. */
  onConflict: z.enum(["skip", "replace", "rename"]).default("skip"),
  /** A note of what this import is, kept in the audit log (spec: Limits > Imports and exports: 200 characters). */
  label: z.string().max(200).optional(),
  /** Publish each template the import writes as its next version (template:publish), in the same transaction. */
  publish: z.boolean().default(false),
});
export type ImportInput = z.infer<typeof ImportInput>;

/** What an import did, or (inspect) would do, item by item. */
export const ImportResult = z
  .object({
    label: z.string().optional(),
    applied: z.boolean().meta({ description: "false for an inspect: nothing was written" }),
    folders: z.array(z.object({ path: z.string(), action: z.enum(["create", "exists"]) })),
    templates: z.array(z.object({ path: z.string(), name: z.string(), kind: z.enum(["component", "handlebars", "workbook"]), action: z.enum(["create", "replace", "skip", "rename"]), as: z.string().optional(), id: z.string().optional(), version: z.number().int().optional(), versions: z.number().int().meta({ description: "Published versions the archive holds for it; a new template gets them again when the caller has template:publish" }) })),
    files: z.array(z.object({ path: z.string(), action: z.enum(["create", "replace", "skip", "rename"]), as: z.string().optional(), id: z.string().optional() })),
    assets: z.array(z.object({ filename: z.string(), kind: z.string(), size: z.number().int(), action: z.enum(["create", "reuse"]), id: z.string().optional() })),
  })
  .meta({ id: "ImportResult" });
export type ImportResult = z.infer<typeof ImportResult>;

// ---------------------------------------------------------------------------------------------
// The archive helpers

let pool: HelperPool | undefined;
/** A helper holds the zip, what it inflates (at most 400 MB) and the values it sends back. */
const helpers = () => (pool ??= new HelperPool({ name: "archives", preload: ["readArchive", "writeArchive"], warmHelpers: 0, maxHelpers: 1, memoryMb: 1536, timeoutMs: 60_000 }));

async function inHelper<T>(job: string, args: unknown[]): Promise<T> {
  try {
    return await helpers().run<T>(job, args, { tenant: currentTenant() });
  } catch (e) {
    if (isHelperJobError(e) && e.remoteName === "ArchiveLimitError") throw new AppError("LIMIT_EXCEEDED", e.message);
    if (isHelperJobError(e) && (e.remoteName === "ArchiveError" || e.remoteName === "ZipError")) throw new AppError("BAD_REQUEST", e.message);
    if (isHelperLimitError(e)) throw new AppError("LIMIT_EXCEEDED", "The archive could not be read within 60 s and 1.5 GiB");
    if (isPoolBusyError(e)) throw new AppError("RATE_LIMITED", e.message);
    throw e;
  }
}

/** spec: Limits > Request rates: the second import or export of a workspace at once: 429 without Retry-After. */
const busy = () => new AppError("RATE_LIMITED", "Another import or export of this workspace is running; try again when it has finished");

// ---------------------------------------------------------------------------------------------
// Export

const joinPath = (...parts: string[]) => parts.filter(Boolean).join("/");

/**
 * A folder (or, with null, the whole workspace) as a zip: its subfolders, workspace files and
 * templates (their drafts), and the uploaded files they use. template:read; asset:manage as well
 * when it holds uploaded files (spec: Scopes).
 */
export async function exportArchive(ctx: Ctx, folderId: string | null): Promise<{ bytes: Uint8Array; filename: string }> {
  requireScope(ctx, "template:read", "export folders");
  const entries: [string, Uint8Array | string][] = [];
  let rootName = "workspace";
  await withTx(async (tx) => {
    if (!(await repo.tryArchiveLock(tx, ctx.workspaceId))) throw busy();
    const tree = await folderTree(tx, ctx.workspaceId);
    const rootNames = folderId === null ? [] : tree.namesOf(folderId);
    if (rootNames === null) throw notFound("folder", folderId!);
    if (rootNames.length) rootName = rootNames[rootNames.length - 1]!;
    /** A folder's path from the export's top, or undefined when it is outside it. */
    const within = (id: string | null): string | undefined => {
      const names = tree.namesOf(id);
      if (!names || names.length < rootNames.length || rootNames.some((n, i) => names[i] !== n)) return undefined;
      return names.slice(rootNames.length).join("/");
    };
    const manifest: Manifest = { format: "folio-export", version: 1, exportedAt: new Date().toISOString(), root: rootNames.join("/"), assets: {}, assetFiles: {} };
    const unexportable = (path: string, isFolder: boolean) => {
      const top = !path.includes("/");
      if (top && (path.toLowerCase() === MANIFEST || path.toLowerCase() === ASSETS_DIR.slice(0, -1))) return `${path} at the top has a name Folio's exports keep for themselves`;
      if (isFolder && lastOf(path).toLowerCase().endsWith(TEMPLATE_SUFFIX)) return `the folder ${path} ends in ${TEMPLATE_SUFFIX}, as exported templates do`;
      return undefined;
    };
    const refuseName = (why: string | undefined) => {
      if (why) throw new AppError("CONFLICT", `This folder cannot be exported: ${why}; rename it and export again`);
    };
    for (const f of tree.all()) {
      const path = within(f.id);
      if (!path) continue;
      refuseName(unexportable(path, true));
      entries.push([`${path}/`, ""]);
    }
    const wanted = new Set<string>();
    for (const f of await repo.allFiles(tx, ctx.workspaceId)) {
      const folder = within(f.folderId);
      if (folder === undefined) continue;
      const path = joinPath(folder, f.name);
      refuseName(unexportable(path, false));
      if (f.kind === "text") entries.push([path, f.content ?? ""]);
      else if (f.assetId) {
        manifest.assetFiles[path] = f.assetId;
        wanted.add(f.assetId);
      }
    }
    const taken = new Set<string>();
    const versionsOf = new Map<string, { version: number; name: string; kind: TemplateKind; content: Record<string, unknown> }[]>();
    for (const v of await repo.allVersions(tx, ctx.workspaceId)) {
      if (!versionsOf.has(v.templateId)) versionsOf.set(v.templateId, []);
      versionsOf.get(v.templateId)!.push(v);
    }
    for (const t of await repo.allTemplates(tx, ctx.workspaceId)) {
      const folder = within(t.folderId);
      if (folder === undefined) continue;
      let dir = joinPath(folder, `${safeName(t.name)}${TEMPLATE_SUFFIX}`);
      for (let n = 2; taken.has(dir.toLowerCase()); n++) dir = joinPath(folder, `${safeName(t.name)} (${n})${TEMPLATE_SUFFIX}`);
      taken.add(dir.toLowerCase());
      for (const [file, text] of templateFiles({ name: t.name, kind: t.kind, description: t.description, content: t.draft })) entries.push([`${dir}/${file}`, text]);
      for (const id of JSON.stringify(t.draft).match(ASSET_ID) ?? []) wanted.add(id);
      for (const v of versionsOf.get(t.id) ?? []) {
        for (const [file, text] of templateFiles({ name: v.name, kind: v.kind, description: t.description, content: v.content })) entries.push([`${dir}/${VERSIONS_DIR}${v.version}/${file}`, text]);
        for (const id of JSON.stringify(v.content).match(ASSET_ID) ?? []) wanted.add(id);
      }
    }
    const found = (await repo.assetsByIds(tx, ctx.workspaceId, [...wanted])).filter((a) => a.state === "ready");
    if (found.length) requireScope(ctx, "asset:manage", "export folders that hold uploaded files");
    // What an import takes back at most (spec: 42 MB of zip), counted before any upload is read; uploads are compressed already.
    const uploads = found.reduce((n, a) => n + a.size, 0);
    if (uploads > WORKSPACE_ARCHIVE_LIMITS.maxZipBytes) {
      throw new AppError("LIMIT_EXCEEDED", `The export would hold ${uploads.toLocaleString("en-US")} bytes of uploaded files; an import takes at most ${WORKSPACE_ARCHIVE_LIMITS.maxZipBytes.toLocaleString("en-US")}: export its folders one by one`);
    }
    for (const a of found) {
      const path = `${ASSETS_DIR}${a.id}/${safeName(a.filename)}`;
      manifest.assets[a.id] = { path, kind: a.kind, mediaType: a.mediaType, filename: a.filename };
      const file = await fileStore().get(blobKey(ctx.workspaceId, a.sha256));
      if (!file) throw new AppError("ASSET_INVALID", `The uploaded file ${a.filename} (${a.id}) is no longer stored`);
      entries.push([path, await bytesOf(file.body)]);
    }
    // Assets named in templates but gone from the workspace are left out of the manifest.
    for (const [path, id] of Object.entries(manifest.assetFiles)) if (!manifest.assets[id]) delete manifest.assetFiles[path];
    entries.unshift([MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`]);
  });
  const bytes = await inHelper<Uint8Array>("writeArchive", [entries]);
  return { bytes, filename: `${safeName(rootName)}.zip` };
}

// ---------------------------------------------------------------------------------------------
// Import

type Plan = ImportResult & { contents: ArchiveContents };

/** "Invoice" → "Invoice (2)"; "style.css" → "style (2).css": the first free one. */
function freeName(name: string, taken: (n: string) => boolean, isFile: boolean): string {
  const dot = isFile ? name.lastIndexOf(".") : -1;
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

const joinPathOf = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);
const parentOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
const lastOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** What the import would do, read from the workspace as it is now (`ex`: the import's transaction, or the pool for an inspect). */
async function planImport(ex: Tx | ReturnType<typeof db>, ctx: Ctx, input: ImportInput, contents: ArchiveContents): Promise<Plan & { tree: FolderTree; base: string[] }> {
  const tree = await folderTree(ex, ctx.workspaceId);
  const base = input.folderId ? tree.namesOf(input.folderId) : [];
  if (base === null) throw notFound("folder", input.folderId!);
  const folderOfPath = (path: string) => tree.folderAt([...base, ...(path ? path.split("/") : [])]);
  const folders = contents.folders.map((path) => ({ path, action: folderOfPath(path) === undefined ? ("create" as const) : ("exists" as const) }));
  const deepest = Math.max(0, ...contents.folders.map((p) => p.split("/").length));
  if (base.length + deepest > MAX_FOLDER_DEPTH) throw new AppError("LIMIT_EXCEEDED", `The archive's folders nest ${deepest} deep; in ${base.length ? base.join("/") : "the root"} that passes the ${MAX_FOLDER_DEPTH} levels a workspace holds`);

  // Names taken now, per folder (by id, "" the root), lower-cased: templates and files apart.
  const templateNames = new Map<string, Map<string, { id: string; kind: TemplateKind; draftRevision: number }>>();
  for (const t of await repo.allTemplates(ex, ctx.workspaceId)) {
    const key = t.folderId ?? "";
    if (!templateNames.has(key)) templateNames.set(key, new Map());
    templateNames.get(key)!.set(t.name.toLowerCase(), { id: t.id, kind: t.kind, draftRevision: t.draftRevision });
  }
  const fileNames = new Map<string, Map<string, { id: string; kind: "text" | "asset"; revision: number }>>();
  for (const f of await repo.allFiles(ex, ctx.workspaceId)) {
    const key = f.folderId ?? "";
    if (!fileNames.has(key)) fileNames.set(key, new Map());
    fileNames.get(key)!.set(f.name.toLowerCase(), { id: f.id, kind: f.kind, revision: f.revision });
  }
  const slot = <T>(m: Map<string, Map<string, T>>, path: string) => {
    const id = folderOfPath(path);
    const key = id === undefined ? `new:${path}` : (id ?? "");
    if (!m.has(key)) m.set(key, new Map());
    return m.get(key)!;
  };

  const inArchive = new Set<string>();
  const templates: Plan["templates"] = contents.templates.map((t) => {
    const key = `${t.folder.toLowerCase()}\u0000${t.template.name.toLowerCase()}`;
    if (inArchive.has(key)) throw new AppError("BAD_REQUEST", `${t.dir}: another template of the archive in ${t.folder || "its top folder"} is named ${t.template.name}`);
    inArchive.add(key);
    const names = slot(templateNames, t.folder);
    const existing = names.get(t.template.name.toLowerCase());
    const path = t.dir;
    if (!existing) {
      names.set(t.template.name.toLowerCase(), { id: "", kind: t.template.kind, draftRevision: 0 });
      return { path, name: t.template.name, kind: t.template.kind, action: "create", versions: t.versions.length };
    }
    if (input.onConflict === "skip") return { path, name: t.template.name, kind: t.template.kind, action: "skip", versions: t.versions.length };
    if (input.onConflict === "replace") {
      if (existing.kind !== t.template.kind) throw new AppError("CONFLICT", `${path}: the template ${t.template.name} here is a ${existing.kind} template; a ${t.template.kind} template cannot replace it (import with onConflict "rename")`);
      return { path, name: t.template.name, kind: t.template.kind, action: "replace", id: existing.id, versions: t.versions.length };
    }
    const as = freeName(t.template.name, (n) => names.has(n.toLowerCase()), false);
    names.set(as.toLowerCase(), { id: "", kind: t.template.kind, draftRevision: 0 });
    return { path, name: t.template.name, kind: t.template.kind, action: "rename", as, versions: t.versions.length };
  });

  const files: Plan["files"] = [...contents.texts.map((f) => ({ path: f.path, kind: "text" as const })), ...contents.assetFiles.map((f) => ({ path: f.path, kind: "asset" as const }))].map((f) => {
    const name = lastOf(f.path);
    if (f.kind === "text" && !textMediaType(name)) throw new AppError("BAD_REQUEST", `${f.path}: a text file's name must end in a text file's extension (.css, .hbs, .js, .json, .html, .txt, .md); put other files in ${ASSETS_DIR}`);
    const names = slot(fileNames, parentOf(f.path));
    const existing = names.get(name.toLowerCase());
    if (!existing) {
      names.set(name.toLowerCase(), { id: "", kind: f.kind, revision: 0 });
      return { path: f.path, action: "create" };
    }
    if (input.onConflict === "skip") return { path: f.path, action: "skip" };
    if (input.onConflict === "replace") {
      if (existing.kind !== f.kind) throw new AppError("CONFLICT", `${f.path}: the file here is ${existing.kind === "text" ? "a text file" : "an uploaded file"}; it cannot be replaced by ${f.kind === "text" ? "a text file" : "an uploaded file"} (import with onConflict "rename")`);
      return { path: f.path, action: "replace", id: existing.id };
    }
    const as = freeName(name, (n) => names.has(n.toLowerCase()), true);
    names.set(as.toLowerCase(), { id: "", kind: f.kind, revision: 0 });
    return { path: f.path, action: "rename", as };
  });

  // Each upload as the upload route would take it (spec: Asset): its kind's media types, a file name, the size limit.
  for (const a of contents.assets) {
    const where = `${MANIFEST}: asset ${a.id}`;
    if (!kindMediaTypes[a.kind].includes(a.mediaType)) throw new AppError("BAD_REQUEST", `${where}: a ${a.kind} is ${kindMediaTypes[a.kind].join(" or ")}, not ${a.mediaType}`);
    const bad = filenameProblem(a.filename);
    if (bad) throw new AppError("BAD_REQUEST", `${where}: its filename ${bad}`);
    if (a.size > MAX_ASSET_BYTES) throw new AppError("LIMIT_EXCEEDED", `${where}: ${a.size.toLocaleString("en-US")} bytes; an uploaded file has at most ${MAX_ASSET_BYTES.toLocaleString("en-US")}`);
  }
  // A folder to make where a file of that name is, or a file where a folder is: the workspace holds one thing per name.
  for (const f of folders) {
    if (f.action === "create" && slot(fileNames, parentOf(f.path)).has(lastOf(f.path).toLowerCase())) throw new AppError("CONFLICT", `${f.path}: a file of that name is there; a folder cannot be made beside it`);
  }
  for (const f of files) {
    if (f.action !== "skip" && folderOfPath(joinPathOf(parentOf(f.path), f.as ?? lastOf(f.path))) !== undefined) throw new AppError("CONFLICT", `${f.path}: a folder of that name is there`);
  }
  const reusable = new Map<string, string>();
  for (const a of await repo.readyAssetsBySha(ex, ctx.workspaceId, contents.assets.map((a) => a.sha256))) reusable.set(`${a.sha256}:${a.kind}`, a.id);
  const assets: Plan["assets"] = contents.assets.map((a) => {
    const id = reusable.get(`${a.sha256}:${a.kind}`);
    return { filename: a.filename, kind: a.kind, size: a.size, action: id ? "reuse" : "create", ...(id ? { id } : {}) };
  });
  return { label: input.label, applied: false, folders, templates, files, assets, contents, tree, base };
}

/** The zip of an import request, decoded and read in the archive helpers. */
async function contentsOf(input: ImportInput, limits: ArchiveLimits, what: string): Promise<ArchiveContents> {
  const bytes = Buffer.from(input.archive, "base64");
  if (bytes.byteLength > limits.maxZipBytes) {
    // spec: Errors: a report archive over its size is BAD_REQUEST; a workspace export over its 42 MB, a limit.
    throw new AppError(what === "report archive" ? "BAD_REQUEST" : "LIMIT_EXCEEDED", `The ${what} has ${bytes.byteLength.toLocaleString("en-US")} bytes once decoded; at most ${limits.maxZipBytes.toLocaleString("en-US")}`, {
      details: [{ path: "archive", message: `more than ${limits.maxZipBytes.toLocaleString("en-US")} bytes once decoded` }],
    });
  }
  return inHelper<ArchiveContents>("readArchive", [bytes, limits]);
}

/** An error of one template of the archive, its message and details led by the template's folder in it. */
async function named<T>(path: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (isAppError(e)) throw new AppError(e.code, `${path}: ${e.message}`, { details: e.details?.map((d) => ({ ...d, path: d.path ? `${path}/${d.path}` : path })) });
    throw e;
  }
}

/**
 * Before an import that publishes: every Handlebars and workbook template's syntax, checked in the
 * sandbox as publishing checks it, so that the transaction never waits on a sandbox job and a typo
 * refuses the whole import (nothing written).
 */
async function checkSyntax(ctx: Ctx, contents: ArchiveContents): Promise<void> {
  const brought = new Map(contents.assets.map((a) => [a.id, a]));
  const all = contents.templates.flatMap((t) => [{ where: t.dir, template: t.template }, ...t.versions.map((v) => ({ where: `${t.dir}/${VERSIONS_DIR}${v.version}`, template: v.template }))]);
  for (const { where, template } of all) {
    if (template.kind === "handlebars") {
      await named(where, (async () => checkHandlebarsSyntax(parseHandlebarsContent(template.content)))());
    } else if (template.kind === "workbook") {
      const content = await named(where, (async () => parseWorkbookContent(template.content))());
      const own = brought.get(content.workbook.assetId);
      await named(where, own ? checkWorkbookBytes(own.bytes, own.sha256, content) : checkWorkbookTemplate(db(), ctx.workspaceId, content));
    }
  }
}

const publicPlan = ({ label, applied, folders, templates, files, assets }: ImportResult): ImportResult => ({ ...(label !== undefined ? { label } : {}), applied, folders, templates, files, assets });

/**
 * What an import of this archive would change, nothing written (POST /v1/reports/import/inspect:
 * template:read). Refuses what the import would refuse.
 */
export async function inspectImport(ctx: Ctx, input: ImportInput, kind: "report" | "workspace"): Promise<ImportResult> {
  requireScope(ctx, "template:read", "inspect archives");
  const contents = await contentsOf(input, kind === "report" ? REPORT_ARCHIVE_LIMITS : WORKSPACE_ARCHIVE_LIMITS, kind === "report" ? "report archive" : "export");
  return publicPlan(await planImport(db(), ctx, input, contents));
}

/**
 * Imports an archive (template:write; asset:manage when it brings uploaded files): folders,
 * workspace files, templates (their drafts: a new template's first revision, or a new revision of
 * the one it replaces) and uploaded files, in one transaction: a failing import changes nothing.
 * Uploaded files whose contents the workspace already holds are reused, not stored twice; asset
 * ids in the imported templates and files are those of the workspace after the import.
 */
export async function importArchive(ctx: Ctx, input: ImportInput, kind: "report" | "workspace"): Promise<ImportResult> {
  requireScope(ctx, "template:write", "import archives");
  if (input.publish) requireScope(ctx, "template:publish", "publish the templates an import brings");
  const contents = await contentsOf(input, kind === "report" ? REPORT_ARCHIVE_LIMITS : WORKSPACE_ARCHIVE_LIMITS, kind === "report" ? "report archive" : "export");
  if (contents.assets.length) requireScope(ctx, "asset:manage", "import archives that bring uploaded files");
  if (input.publish || (hasScope(ctx, "template:publish") && contents.templates.some((t) => t.versions.length))) await checkSyntax(ctx, contents);
  const actor = actorRef(ctx);
  const result = await withTx(async (tx) => {
    if (!(await repo.tryArchiveLock(tx, ctx.workspaceId))) throw busy();
    await lockWorkspaceFiles(tx, ctx.workspaceId);
    const plan = await planImport(tx, ctx, input, contents);

    // Uploaded files: stored (content-addressed, so a failed import leaves only unreferenced bytes) and counted against storage.
    const ids = new Map<string, string>();
    const fresh = plan.assets.map((a, i) => [a, contents.assets[i]!] as const).filter(([a]) => a.action === "create");
    if (fresh.length) {
      await lockAssetStorage(tx, ctx.workspaceId);
      const max = await maxStorageBytes(tx, ctx.workspaceId);
      const extra = [...new Map(fresh.map(([, c]) => [c.sha256, c.size])).values()].reduce((n, s) => n + s, 0);
      if (max !== null && (await storedBytes(tx, ctx.workspaceId)) + extra > max) {
        throw new AppError("QUOTA_EXCEEDED", `File storage is full: the archive's uploaded files need ${extra} bytes more than the workspace's maxStorageBytes of ${max} allow; nothing was imported`);
      }
    }
    contents.assets.forEach((c, i) => {
      const planned = plan.assets[i]!;
      if (planned.action === "reuse") ids.set(c.id, planned.id!);
    });
    for (const [planned, c] of fresh) {
      const key = blobKey(ctx.workspaceId, c.sha256);
      await fileStore().put(key, c.bytes, c.mediaType);
      await insertBlob(tx, { workspaceId: ctx.workspaceId, sha256: c.sha256, size: c.size, mediaType: c.mediaType, storageKey: key });
      const a = await insertAsset(tx, { id: newId("ast"), workspaceId: ctx.workspaceId, kind: c.kind, filename: c.filename, mediaType: c.mediaType, size: c.size, sha256: c.sha256, state: "ready", createdByType: actor.type, createdById: actor.id });
      planned.id = a.id;
      ids.set(c.id, a.id);
    }
    const remap = <T>(value: T): T => (ids.size ? (JSON.parse(JSON.stringify(value).replace(ASSET_ID, (id) => ids.get(id) ?? id)) as T) : value);

    // Folders, parents first.
    const tree = plan.tree;
    const folderIds = new Map<string, string | null>([["", input.folderId ?? null]]);
    for (const f of plan.folders) {
      const existing = tree.folderAt([...plan.base, ...f.path.split("/")]);
      if (existing !== undefined) folderIds.set(f.path, existing);
      else {
        const row = await filesRepo.insertFolder(tx, { id: newId("fld"), workspaceId: ctx.workspaceId, parentId: folderIds.get(parentOf(f.path)) ?? null, name: lastOf(f.path) });
        folderIds.set(f.path, row.id);
      }
    }
    const folderIdOf = (path: string) => folderIds.get(path) ?? null;

    // Files.
    const texts = new Map(contents.texts.map((t) => [t.path, t.content]));
    const assetOfFile = new Map(contents.assetFiles.map((f) => [f.path, f.assetId]));
    for (const f of plan.files) {
      if (f.action === "skip") continue;
      const name = f.as ?? lastOf(f.path);
      const text = texts.get(f.path);
      const assetId = text === undefined ? ids.get(assetOfFile.get(f.path)!)! : undefined;
      const asset = assetId ? plan.assets.find((a) => a.id === assetId) : undefined;
      const mediaType = text !== undefined ? textMediaType(name)! : contents.assets.find((c) => ids.get(c.id) === assetId)!.mediaType;
      const size = text !== undefined ? Buffer.byteLength(text) : (asset?.size ?? 0);
      if (f.action === "replace") {
        await filesRepo.updateFile(tx, ctx.workspaceId, f.id!, { ...(text !== undefined ? { content: text } : { assetId }), mediaType, size, bumpRevision: true, updatedByType: actor.type, updatedById: actor.id });
      } else {
        const row = await filesRepo.insertFile(tx, { id: newId("fil"), workspaceId: ctx.workspaceId, folderId: folderIdOf(parentOf(f.path)), name, kind: text !== undefined ? "text" : "asset", content: text ?? null, assetId: assetId ?? null, mediaType, size, updatedByType: actor.type, updatedById: actor.id });
        f.id = row.id;
      }
    }

    // Templates: checked as a save checks them (errors name the archive's folder). A new template
    // gets the archive's published versions again, oldest first, each a revision published in
    // turn, when the caller may publish (spec: Scopes); then its draft.
    const mayPublish = hasScope(ctx, "template:publish");
    /** One more revision of template `id` with this content (the first makes the template). */
    const saveRevision = async (id: string | undefined, content: Record<string, unknown>, make: () => Promise<string>): Promise<string> => {
      if (id === undefined) {
        const made = await make();
        await templatesRepo.insertRevision(tx, { id: newId("rev"), templateId: made, revision: 1, content, actorType: actor.type, actorId: actor.id });
        return made;
      }
      const current = await templatesRepo.findTemplate(tx, ctx.workspaceId, id, true);
      const saved = await templatesRepo.saveDraft(tx, ctx.workspaceId, id, current!.draftRevision, content);
      await templatesRepo.insertRevision(tx, { id: newId("rev"), templateId: id, revision: saved!.draftRevision, content, actorType: actor.type, actorId: actor.id });
      return id;
    };
    const publishNow = async (id: string, where: string) => {
      const row = await templatesRepo.findTemplate(tx, ctx.workspaceId, id, true);
      return (await named(where, publishInTx(tx, ctx, row!))).version;
    };
    for (const [i, t] of plan.templates.entries()) {
      if (t.action === "skip") continue;
      const source = contents.templates[i]!;
      const parse = (where: string, kindOf: TemplateKind, raw: Record<string, unknown>) => {
        if (kindOf !== source.template.kind) throw new AppError("BAD_REQUEST", `${where}: a ${kindOf} version of a ${source.template.kind} template`);
        return named(where, (async () => parseContentOf(kindOf, remap(raw)) as Record<string, unknown>)());
      };
      const content = await parse(t.path, source.template.kind, source.template.content);
      const make = async () =>
        (await templatesRepo.insertTemplate(tx, { id: newId("tpl"), workspaceId: ctx.workspaceId, name: t.as ?? t.name, description: source.template.description, kind: source.template.kind, folderId: folderIdOf(source.folder), draft: content })).id;
      let id = t.action === "replace" ? t.id : undefined;
      let last: string | undefined;
      if (t.action !== "replace" && mayPublish) {
        for (const v of source.versions) {
          const where = `${t.path}/${VERSIONS_DIR}${v.version}`;
          const vc = await parse(where, v.template.kind, v.template.content);
          id = await saveRevision(id, vc, async () => (await templatesRepo.insertTemplate(tx, { id: newId("tpl"), workspaceId: ctx.workspaceId, name: t.as ?? t.name, description: source.template.description, kind: source.template.kind, folderId: folderIdOf(source.folder), draft: vc })).id);
          t.version = await publishNow(id, where);
          last = JSON.stringify(vc);
        }
      }
      if (last !== JSON.stringify(content)) id = await saveRevision(id, content, make);
      t.id = id;
      if (input.publish && last !== JSON.stringify(content)) t.version = await publishNow(id!, t.path);
    }
    const count = (items: { action: string }[], action: string) => items.filter((x) => x.action === action).length;
    await recordAudit(tx, ctx, kind === "report" ? "report_archive.import" : "workspace.import", { type: "workspace", id: ctx.workspaceId }, {
      ...(input.label ? { label: input.label } : {}),
      folderId: input.folderId ?? null,
      onConflict: input.onConflict,
      templates: { created: count(plan.templates, "create") + count(plan.templates, "rename"), replaced: count(plan.templates, "replace"), skipped: count(plan.templates, "skip") },
      files: { created: count(plan.files, "create") + count(plan.files, "rename"), replaced: count(plan.files, "replace"), skipped: count(plan.files, "skip") },
      assets: { created: count(plan.assets, "create"), reused: count(plan.assets, "reuse") },
    });
    return { ...publicPlan(plan), applied: true };
  });
  return result;
}
