import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from "node:crypto";
import { config } from "./config";

const derived = new Map<string, Buffer>();

/** A 32-byte key for one purpose ("session", "links", "secrets"), derived from SECRET_KEY with HKDF. */
export function deriveKey(purpose: string): Buffer {
  let k = derived.get(purpose);
  if (!k) {
    k = Buffer.from(hkdfSync("sha256", config().SECRET_KEY, Buffer.alloc(0), `folio:${purpose}`, 32));
    derived.set(purpose, k);
  }
  return k;
}

const keyObjects = new Map<string, KeyObject>();

/** deriveKey as a KeyObject, for HMACs on hot paths (a Buffer key is converted on every call). */
export function deriveKeyObject(purpose: string): KeyObject {
  let k = keyObjects.get(purpose);
  if (!k) keyObjects.set(purpose, (k = createSecretKey(deriveKey(purpose))));
  return k;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * `plain` encrypted and authenticated with AES-256-GCM under the key for `purpose`, with a fresh
 * random IV, as base64url: it reveals nothing but its length, and any change makes `unseal` fail.
 */
export function seal(purpose: string, plain: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", deriveKeyObject(purpose), iv, { authTagLength: TAG_BYTES });
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString("base64url");
}

/** What `seal` sealed for `purpose`; undefined for anything else (altered, cut, another key or purpose). */
export function unseal(purpose: string, sealed: string): Buffer | undefined {
  const bytes = Buffer.from(sealed, "base64url");
  // why canonical: base64url decoding skips stray characters and unused bits; one token, one text.
  if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString("base64url") !== sealed) return undefined;
  const decipher = createDecipheriv("aes-256-gcm", deriveKeyObject(purpose), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined; // the tag does not match
  }
}
