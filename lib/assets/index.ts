/**
 * Uploaded files (spec: Asset (uploaded file); docs/api.md, Assets): register, upload through a
 * sealed link (./upload.ts), list, read with a fresh download link, delete. Bytes live in
 * content-addressed blobs per workspace, so a file uploaded twice, or kept by published versions
 * after its asset was deleted, is stored and counted once.
 */
import { recordAudit } from "../audit";
import { actorRef, hasScope, requireScope, type Ctx } from "../auth/context";
import { db, withTx, type Executor, type Tx } from "../db/client";
import { newId } from "../db/ids";
import type { AssetKind, AssetRow } from "../db/schema";
import { AppError, conflict, notFound } from "../errors";
import { downloadLink, LINK_TTL_MS, uploadLink } from "../files/links";
import { enqueue } from "../jobs/boss";
import { decodeCursor, toPage, type Page } from "../paging";
import { folderTree } from "../workspace-files/lookup";
import { blobKey, type AssetRef } from "../documents/asset-refs";
import * as repo from "./repository";
import { imageKinds, MAX_ASSET_BYTES, type Asset, type AssetListQuery, type AssetUser, type RegisteredAsset, type RegisterAssetInput } from "./schemas";

export { Asset, AssetListQuery, AssetPage, kindMediaTypes, MAX_ASSET_BYTES, RegisterAssetInput, RegisteredAsset, type AssetUser } from "./schemas";
export type { AssetRow } from "../db/schema";

/** The API view of an asset; with `link`, a ready asset gets a fresh five-minute download link. */
export function toAsset(a: AssetRow, link = false): Asset {
  const out: Asset = {
    id: a.id,
    kind: a.kind,
    filename: a.filename,
    mediaType: a.mediaType,
    size: a.size,
    sha256: a.sha256,
    state: a.state,
    createdAt: a.createdAt.toISOString(),
  };
  if (a.uploadedAt) out.uploadedAt = a.uploadedAt.toISOString();
  if (link && a.state === "ready") {
    const l = downloadLink({ key: blobKey(a.workspaceId, a.sha256), contentType: a.mediaType, filename: a.filename });
    out.downloadUrl = l.url;
    out.expiresAt = l.expiresAt;
  }
  return out;
}

/**
 * The kinds this caller may see and upload: all with asset:manage; images and SVG with
 * template:content alone (spec: template:content uploads images for content fields).
 * Throws 403 naming asset:manage when neither applies (or the kind needs asset:manage).
 */
function allowedKinds(ctx: Ctx, kind?: AssetKind, action?: string): readonly AssetKind[] | undefined {
  if (hasScope(ctx, "asset:manage")) return undefined;
  if (hasScope(ctx, "template:content") && (kind === undefined || imageKinds.includes(kind))) return imageKinds;
  requireScope(ctx, "asset:manage", action);
  return undefined;
}

/** 402 QUOTA_EXCEEDED when `extra` bytes more would pass the workspace's maxStorageBytes (null: unlimited). */
async function assertStorageFor(tx: Executor, workspaceId: string, extra: number, countReserved: boolean) {
  const max = await repo.maxStorageBytes(tx, workspaceId);
  if (max === null || extra === 0) return;
  const stored = await repo.storedBytes(tx, workspaceId);
  const reserved = countReserved ? await repo.reservedBytes(tx, workspaceId, new Date(Date.now() - LINK_TTL_MS)) : 0;
  if (stored + reserved + extra <= max) return;
  const inFlight = reserved ? ` and uploads in progress reserve ${reserved}` : "";
  throw new AppError(
    "QUOTA_EXCEEDED",
    `File storage is full: the workspace stores ${stored} of its ${max} bytes${inFlight}, and this file needs ${extra} more. Delete assets it no longer needs.`,
  );
}

/**
 * Registers an asset (pending) and returns where to upload its bytes: a sealed link valid five
 * minutes and the headers the upload must carry. Content already stored in the workspace needs no
 * space; anything else must fit maxStorageBytes with the uploads still in flight (402, nothing
 * created). A size over MAX_ASSET_BYTES answers 400 LIMIT_EXCEEDED (spec: Errors, Limits > Assets).
 */
export async function registerAsset(ctx: Ctx, input: RegisterAssetInput): Promise<RegisteredAsset> {
  allowedKinds(ctx, input.kind, "upload this kind of asset");
  if (input.size > MAX_ASSET_BYTES) {
    throw new AppError("LIMIT_EXCEEDED", `size: an asset may have at most ${MAX_ASSET_BYTES} bytes; this one has ${input.size}`, {
      details: [{ path: "size", message: `must be at most ${MAX_ASSET_BYTES} bytes` }],
    });
  }
  const row = await withTx(async (tx) => {
    await repo.lockStorage(tx, ctx.workspaceId);
    const since = new Date(Date.now() - LINK_TTL_MS);
    const stored = await repo.findBlob(tx, ctx.workspaceId, input.sha256);
    const needs = stored || (await repo.isReserved(tx, ctx.workspaceId, input.sha256, since)) ? 0 : input.size;
    await assertStorageFor(tx, ctx.workspaceId, needs, true);
    const actor = actorRef(ctx);
    const a = await repo.insertAsset(tx, {
      id: newId("ast"),
      workspaceId: ctx.workspaceId,
      kind: input.kind,
      filename: input.filename,
      mediaType: input.mediaType,
      size: input.size,
      sha256: input.sha256,
      createdByType: actor.type,
      createdById: actor.id,
    });
    await recordAudit(tx, ctx, "asset.create", { type: "asset", id: a.id }, { kind: a.kind, filename: a.filename, size: a.size });
    return a;
  });
  const link = uploadLink({ assetId: row.id, workspaceId: row.workspaceId });
  return { ...toAsset(row), uploadUrl: link.url, uploadHeaders: uploadHeaders(row), uploadExpiresAt: link.expiresAt };
}

/** The headers an upload must carry, each with exactly this value (lower-case names). */
export function uploadHeaders(a: Pick<AssetRow, "mediaType" | "size" | "sha256">): Record<string, string> {
  return { "content-type": a.mediaType, "content-length": String(a.size), "x-folio-sha256": a.sha256 };
}

/** One asset of the workspace with a fresh download link when ready; 404 for unknown ids and other workspaces' alike. */
export async function getAsset(ctx: Ctx, id: string): Promise<Asset> {
  const kinds = allowedKinds(ctx);
  const a = await repo.findAsset(db(), ctx.workspaceId, id);
  if (!a) throw notFound("asset", id);
  if (kinds && !kinds.includes(a.kind)) allowedKinds(ctx, a.kind, "read this kind of asset"); // 403 naming asset:manage
  return toAsset(a, true);
}

/** A page of the workspace's assets, newest first, optionally of one kind. */
export async function listAssets(ctx: Ctx, query: AssetListQuery): Promise<Page<Asset>> {
  const allowed = allowedKinds(ctx, query.kind); // a kind they may not see: 403
  const kinds = query.kind ? [query.kind] : allowed;
  const rows = await repo.listAssets(db(), ctx.workspaceId, query.limit, decodeCursor(query.cursor), kinds);
  return toPage(rows, query.limit, (r) => toAsset(r));
}

/** A ready asset with a fresh download link (the console's thumbnails), without reading it again. */
export function withDownloadLink(ctx: Ctx, a: Asset): Asset {
  if (a.state !== "ready") return a;
  const l = downloadLink({ key: blobKey(ctx.workspaceId, a.sha256), contentType: a.mediaType, filename: a.filename });
  return { ...a, downloadUrl: l.url, expiresAt: l.expiresAt };
}

/** How many workspace files and template drafts use each asset (for the console's list). */
export async function assetUseCounts(ctx: Ctx, ids: string[]): Promise<Map<string, number>> {
  allowedKinds(ctx);
  return repo.useCounts(db(), ctx.workspaceId, ids.slice(0, 100));
}

/**
 * Who uses an asset: workspace files backed by it and templates whose draft names it literally
 * (an image component's assetId). Each with a message naming it, as a 409's details list them.
 */
export async function assetUsers(ex: Executor, workspaceId: string, assetId: string): Promise<AssetUser[]> {
  const [files, tpls] = await Promise.all([repo.filesUsing(ex, workspaceId, assetId), repo.templatesUsing(ex, workspaceId, assetId)]);
  const users: AssetUser[] = [];
  if (files.length) {
    const tree = await folderTree(ex, workspaceId);
    for (const f of files) {
      const path = [...(tree.namesOf(f.folderId) ?? []), f.name].join("/");
      users.push({ type: "workspaceFile", id: f.id, message: `workspace file ${path} (${f.id}) is this asset` });
    }
  }
  for (const t of tpls) users.push({ type: "template", id: t.id, message: `template ${t.id} (${t.name}) uses it in an image component of its draft` });
  return users;
}

/**
 * Deletes an asset (asset:manage). Refused with 409 while a workspace file or a template draft
 * uses it (details name each). Its bytes go once nothing else uses them; published versions that
 * copied them keep them (spec: Versioning 5).
 */
export async function deleteAsset(ctx: Ctx, id: string): Promise<{ deleted: true; ids: string[] }> {
  requireScope(ctx, "asset:manage", "delete assets");
  return withTx(async (tx) => {
    const a = await repo.findAsset(tx, ctx.workspaceId, id, true);
    if (!a) throw notFound("asset", id);
    const users = await assetUsers(tx, ctx.workspaceId, id);
    if (users.length) {
      throw conflict(`Asset ${id} (${a.filename}) is in use; stop using it first`, { details: users.map((u) => ({ message: u.message })) });
    }
    await repo.deleteAsset(tx, ctx.workspaceId, id);
    await releaseUnusedBlobs(tx, ctx.workspaceId, [a.sha256]);
    await recordAudit(tx, ctx, "asset.delete", { type: "asset", id }, { kind: a.kind, filename: a.filename });
    return { deleted: true as const, ids: [id] };
  });
}

/**
 * Deletes the rows of these blobs that no ready asset and no published version uses any more, and
 * queues the deletion of their files (checked again under the workspace's storage lock when the
 * job runs, so an upload of the same content in between keeps its file). Call it in the
 * transaction that stopped using them (deleting an asset, a template version).
 */
export async function releaseUnusedBlobs(tx: Tx, workspaceId: string, sha256s: string[]): Promise<string[]> {
  const unique = [...new Set(sha256s)];
  if (unique.length === 0) return [];
  await repo.lockStorage(tx, workspaceId);
  const released = await repo.deleteUnusedBlobs(tx, workspaceId, unique);
  if (released.length) await enqueue(tx, "blob-deletion", { workspaceId, sha256s: released });
  return released;
}

/**
 * Takes the workspace's storage lock for the rest of the transaction. Publishing a template takes
 * it before it looks at the assets the version will copy: a deletion that releases a blob then
 * either finished first (the publish sees the asset gone) or runs after the version's rows exist
 * (and keeps the blob).
 */
export function lockAssetStorage(tx: Tx, workspaceId: string): Promise<void> {
  return repo.lockStorage(tx, workspaceId);
}

/**
 * Deletes the files of blobs that still have no row (job blob-deletion), under the storage lock:
 * an upload that stored the same content again in the meantime has its row, and keeps its file.
 */
export async function deleteBlobFiles(workspaceId: string, sha256s: string[], remove: (keys: string[]) => Promise<void>) {
  await withTx(async (tx) => {
    await repo.lockStorage(tx, workspaceId);
    const gone = await repo.missingBlobs(tx, workspaceId, sha256s);
    if (gone.length) await remove(gone.map((s) => blobKey(workspaceId, s)));
  });
}

/** Bytes the workspace stores (each blob once): for the render limits' storageBytes. */
export function storageBytes(ex: Executor, workspaceId: string): Promise<number> {
  return repo.storedBytes(ex, workspaceId);
}

/** The workspace's ready assets among these ids (pending ones and other workspaces' are left out). */
export async function readyAssets(ex: Executor, workspaceId: string, ids: readonly string[]): Promise<Map<string, AssetRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await repo.findAssets(ex, workspaceId, unique);
  return new Map(rows.filter((r) => r.state === "ready").map((r) => [r.id, r]));
}

/** What a render carries for an asset a page may load (name and label: the asset id). */
export function assetRef(a: AssetRow, name = a.id, label = a.id): AssetRef {
  return { name, key: blobKey(a.workspaceId, a.sha256), mediaType: a.mediaType, size: a.size, sha256: a.sha256, label };
}

/**
 * The assets of caller HTML (`document.assetIds`) as a render's asset list: the page loads each
 * at `http://assets.invalid/<assetId>`. 400 ASSET_INVALID with one details entry per id that is
 * unknown, of another workspace, or still pending.
 */
export async function assetRefsForDocument(ex: Executor, workspaceId: string, assetIds: readonly string[]): Promise<AssetRef[]> {
  const unique = [...new Set(assetIds)];
  if (unique.length === 0) return [];
  const rows = new Map((await repo.findAssets(ex, workspaceId, unique)).map((r) => [r.id, r]));
  const details: { path: string; message: string }[] = [];
  assetIds.forEach((id, i) => {
    const a = rows.get(id);
    if (!a) details.push({ path: `document.assetIds.${i}`, message: `no asset with id ${id}` });
    else if (a.state !== "ready") details.push({ path: `document.assetIds.${i}`, message: `asset ${id} is still pending: upload its file first` });
  });
  if (details.length) {
    throw new AppError("ASSET_INVALID", details.length === 1 ? `document.assetIds: ${details[0]!.message}` : `document.assetIds: ${details.length} assets cannot be used`, { details });
  }
  return unique.map((id) => assetRef(rows.get(id)!));
}

const ABANDONED_AFTER_MS = 86_400_000;
const ABANDONED_BATCH = 500;

/**
 * Deletes assets registered more than a day ago whose bytes never arrived (their links expired
 * after five minutes), 500 at a time (hourly retention job). A pending asset holds no blob, so
 * nothing else goes with it.
 */
export async function purgeAbandonedUploads(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ABANDONED_AFTER_MS);
  let total = 0;
  for (;;) {
    const deleted = (await repo.deleteAbandonedUploads(db(), cutoff, ABANDONED_BATCH)).length;
    total += deleted;
    if (deleted < ABANDONED_BATCH) return total;
  }
}
