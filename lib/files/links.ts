import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../config";
import { deriveKeyObject } from "../crypto";
import { forbidden } from "../errors";

/** spec: download and upload links last five minutes; reading the resource again yields a fresh one. */
export const LINK_TTL_MS = 5 * 60_000;

export type DownloadGrant = { key: string; contentType: string; filename: string; expiresAt: number };

const sign = (payload: string) => createHmac("sha256", deriveKeyObject("links")).update(payload).digest("base64url");

/** A signed, expiring link to a stored file. The token carries what to serve; only its HMAC makes it valid. */
export function downloadLink(grant: Omit<DownloadGrant, "expiresAt">, now = Date.now()): { url: string; expiresAt: string } {
  const expiresAt = now + LINK_TTL_MS;
  const payload = Buffer.from(JSON.stringify([grant.key, grant.contentType, grant.filename, expiresAt])).toString("base64url");
  return { url: `${config().PUBLIC_URL}/v1/storage/downloads/${payload}.${sign(payload)}`, expiresAt: new Date(expiresAt).toISOString() };
}

/** The grant behind a token; 403 FORBIDDEN when altered or expired. */
export function verifyDownloadToken(token: string, now = Date.now()): DownloadGrant {
  const [payload, mac, extra] = token.split(".");
  const bad = () => forbidden("This download link is not valid; read the render again for a fresh link");
  if (!payload || !mac || extra !== undefined) throw bad();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
  const [key, contentType, filename, expiresAt] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [string, string, string, number];
  if (now > expiresAt) throw forbidden("This download link has expired; read the render again for a fresh link");
  return { key, contentType, filename, expiresAt };
}
