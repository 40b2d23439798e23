import { createHash } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { refuseWhileSuspended } from "../auth/context";
import { config } from "../config";
import { db, withTx } from "../db/client";
import { AppError, notFound, type ErrorDetail } from "../errors";
import { verifyUploadToken } from "../files/links";
import { fileStore } from "../files/store";
import { enqueue } from "../jobs/boss";
import { log } from "../log";
import { makePrivateDir } from "../private-files";
import { toAsset, uploadHeaders, type Asset } from ".";
import { blobKey } from "../documents/asset-refs";
import * as repo from "./repository";

/** An upload as the web server hands it over: its headers (lower-case names) and its body. */
export type UploadRequest = {
  header: (name: string) => string | undefined;
  body: AsyncIterable<Uint8Array>;
};

const refused = (message: string, details?: ErrorDetail[]) => new AppError("BAD_REQUEST", message, { details });

/** The value of a header as compared: media types ignore case and surrounding space, like the hex of a checksum. */
const normal = (name: string, v: string) => (name === "content-length" ? v.trim() : v.trim().toLowerCase());

/**
 * Receives an asset's bytes through its sealed upload link (docs/api.md, Assets > Upload).
 * Every header of uploadHeaders must carry its registered value (else 400 naming each), the body
 * must have the registered size and SHA-256 (else 400, nothing stored, the asset stays pending),
 * and the workspace's storage must still hold it (402, nothing stored). 403 for an expired or
 * altered link or a suspended workspace (an upload changes it; lib/auth/context.ts), 404 when
 * the asset was deleted. Uploading the same bytes again after success
 * answers the ready asset and stores nothing.
 */
export async function uploadAsset(token: string, req: UploadRequest): Promise<Asset> {
  const grant = verifyUploadToken(token);
  refuseWhileSuspended(await repo.isWorkspaceSuspended(db(), grant.workspaceId));
  const asset = await repo.findAsset(db(), grant.workspaceId, grant.assetId);
  if (!asset) throw notFound("asset", grant.assetId);

  const problems: ErrorDetail[] = [];
  for (const [name, expected] of Object.entries(uploadHeaders(asset))) {
    const got = req.header(name);
    if (got === undefined) problems.push({ path: `headers.${name}`, message: `is missing; send ${name}: ${expected}` });
    else if (normal(name, got) !== normal(name, expected)) {
      const what = name === "content-length" ? `the upload has ${got} bytes but asset ${asset.id} was registered with ${expected}` : `is ${got} but asset ${asset.id} was registered with ${expected}`;
      problems.push({ path: `headers.${name}`, message: what });
    }
  }
  if (problems.length) {
    throw refused(`The upload does not match asset ${asset.id}: ${problems.map((p) => `${p.path!.slice(8)} ${p.message}`).join("; ")}`, problems);
  }

  const spool = await spoolExactly(req.body, asset.size, asset.id);
  try {
    if (spool.sha256 !== asset.sha256) {
      throw refused(`The upload's SHA-256 is ${spool.sha256} but asset ${asset.id} was registered with ${asset.sha256}; nothing was stored`, [
        { path: "body", message: `has SHA-256 ${spool.sha256}, not the registered ${asset.sha256}` },
      ]);
    }
    if (asset.state === "ready") return toAsset(asset);
    return await store(asset.workspaceId, asset.id, spool.file);
  } finally {
    await fsp.rm(spool.dir, { recursive: true, force: true });
  }
}

/**
 * The body, exactly `size` bytes, written as it arrives to a spool file in a private folder of
 * DATA_DIR (never held whole in memory: an asset may be 50 MB, and uploads run side by side),
 * with its SHA-256: 400 when it ends short or goes on past them (reading stops one chunk past the
 * size). The caller removes `dir`.
 */
async function spoolExactly(body: AsyncIterable<Uint8Array>, size: number, assetId: string): Promise<{ dir: string; file: string; sha256: string }> {
  const parent = path.join(config().DATA_DIR, "uploads");
  makePrivateDir(parent);
  const dir = await fsp.mkdtemp(path.join(parent, "upload-"));
  const file = path.join(dir, "body");
  const out = await fsp.open(file, "wx", 0o600);
  const hash = createHash("sha256");
  let filled = 0;
  try {
    // why not for-await: leaving that loop early destroys the request, and with it the socket the
    // refusal must be sent on.
    const it = body[Symbol.asyncIterator]();
    for (;;) {
      const { value, done } = await it.next().catch((e: unknown) => {
        // why a refusal: a client that went away mid-body (ECONNRESET) is no fault of the database's or Folio's.
        throw refused(`The upload stopped after ${filled} of the ${size} bytes registered for asset ${assetId} (${(e as Error).message}); nothing was stored`, [{ path: "body", message: `has ${filled} bytes, not ${size}` }]);
      });
      if (done) break;
      if (filled + value.byteLength > size) {
        throw refused(`The upload is longer than the ${size} bytes registered for asset ${assetId}; nothing was stored`, [{ path: "body", message: `is longer than ${size} bytes` }]);
      }
      hash.update(value);
      await out.write(value);
      filled += value.byteLength;
    }
    if (filled < size) {
      throw refused(`The upload ended after ${filled} of the ${size} bytes registered for asset ${assetId}; nothing was stored`, [{ path: "body", message: `has ${filled} bytes, not ${size}` }]);
    }
  } catch (e) {
    await out.close();
    await fsp.rm(dir, { recursive: true, force: true });
    throw e;
  }
  await out.close();
  return { dir, file, sha256: hash.digest("hex") };
}

/**
 * Stores the blob (unless the workspace has this content already) and marks the asset ready, under
 * the workspace's storage lock, checking maxStorageBytes once more at this moment.
 */
async function store(workspaceId: string, assetId: string, file: string): Promise<Asset> {
  let wrote: string | undefined;
  try {
    return await withTx(async (tx) => {
      await repo.lockStorage(tx, workspaceId);
      const a = await repo.findAsset(tx, workspaceId, assetId, true);
      if (!a) throw notFound("asset", assetId);
      if (a.state === "ready") return toAsset(a);
      if (!(await repo.findBlob(tx, workspaceId, a.sha256))) {
        const max = await repo.maxStorageBytes(tx, workspaceId);
        const stored = max === null ? 0 : await repo.storedBytes(tx, workspaceId);
        if (max !== null && stored + a.size > max) {
          throw new AppError(
            "QUOTA_EXCEEDED",
            `File storage is full: the workspace stores ${stored} of its ${max} bytes, and this file needs ${a.size} more; nothing was stored. Delete assets it no longer needs, then upload again.`,
          );
        }
        const key = blobKey(workspaceId, a.sha256);
        await fileStore().putFile(key, file, a.mediaType);
        wrote = a.sha256;
        await repo.insertBlob(tx, { workspaceId, sha256: a.sha256, size: a.size, mediaType: a.mediaType, storageKey: key });
      }
      return toAsset((await repo.markReady(tx, workspaceId, assetId))!);
    });
  } catch (err) {
    // A file written for a transaction that did not commit has no row: its deletion job checks
    // that under the storage lock, so it never takes a file another upload stored since.
    if (wrote) {
      const sha256 = wrote;
      await withTx((tx) => enqueue(tx, "blob-deletion", { workspaceId, sha256s: [sha256] })).catch((e: unknown) => log().error({ err: e }, "could not queue the deletion of an orphaned blob"));
    }
    throw err;
  }
}
