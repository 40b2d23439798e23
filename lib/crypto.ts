import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";
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
