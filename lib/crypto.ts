import { hkdfSync } from "node:crypto";
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
