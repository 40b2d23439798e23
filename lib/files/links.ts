import { config } from "../config";
import { seal, unseal } from "../crypto";
import { forbidden } from "../errors";

/** spec: download and upload links last five minutes; reading the resource again yields a fresh one. */
export const LINK_TTL_MS = 5 * 60_000;

/** The purpose of the key download grants are sealed with (lib/crypto.ts). */
const DOWNLOAD_LINKS = "download-links";

export type DownloadGrant = { key: string; contentType: string; filename: string; expiresAt: number };

/**
 * An expiring link to a stored file that says nothing: its token is the grant (what to serve, until
 * when) sealed under a key derived from SECRET_KEY, so every web node with that key can serve it,
 * nobody else can read it, and any change to it fails.
 */
export function downloadLink(grant: Omit<DownloadGrant, "expiresAt">, now = Date.now()): { url: string; expiresAt: string } {
  const expiresAt = now + LINK_TTL_MS;
  const token = seal(DOWNLOAD_LINKS, Buffer.from(JSON.stringify([grant.key, grant.contentType, grant.filename, expiresAt])));
  return { url: `${config().PUBLIC_URL}/v1/storage/downloads/${token}`, expiresAt: new Date(expiresAt).toISOString() };
}

/** The grant behind a token; 403 FORBIDDEN when altered or expired. */
export function verifyDownloadToken(token: string, now = Date.now()): DownloadGrant {
  const plain = unseal(DOWNLOAD_LINKS, token);
  if (!plain) throw forbidden("This download link is not valid; read the render again for a fresh link");
  const [key, contentType, filename, expiresAt] = JSON.parse(plain.toString("utf8")) as [string, string, string, number];
  if (now > expiresAt) throw forbidden("This download link has expired; read the render again for a fresh link");
  return { key, contentType, filename, expiresAt };
}

/** The purpose of the key upload grants are sealed with: a download token never opens as an upload, nor the reverse. */
const UPLOAD_LINKS = "upload-links";

export type UploadGrant = { assetId: string; workspaceId: string; expiresAt: number };

/** An expiring link to upload one asset's bytes (PUT), sealed like a download link under a key of its own. */
export function uploadLink(grant: Omit<UploadGrant, "expiresAt">, now = Date.now()): { url: string; expiresAt: string } {
  const expiresAt = now + LINK_TTL_MS;
  const token = seal(UPLOAD_LINKS, Buffer.from(JSON.stringify([grant.assetId, grant.workspaceId, expiresAt])));
  return { url: `${config().PUBLIC_URL}/v1/storage/uploads/${token}`, expiresAt: new Date(expiresAt).toISOString() };
}

/** The grant behind an upload token; 403 FORBIDDEN when altered or expired. */
export function verifyUploadToken(token: string, now = Date.now()): UploadGrant {
  const plain = unseal(UPLOAD_LINKS, token);
  if (!plain) throw forbidden("This upload link is not valid; register the asset again for a fresh link");
  const [assetId, workspaceId, expiresAt] = JSON.parse(plain.toString("utf8")) as [string, string, number];
  if (now > expiresAt) throw forbidden("This upload link has expired (links last five minutes); register the asset again for a fresh link");
  return { assetId, workspaceId, expiresAt };
}
