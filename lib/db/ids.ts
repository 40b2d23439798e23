import { randomBytes } from "node:crypto";

/** decisions.md: Identifiers and keys. */
export const idPrefixes = ["ws", "usr", "key", "tpl", "tv", "rev", "rnd", "bat", "ast", "dst", "whe", "evt", "msg", "aud", "fld", "fil", "req", "inv"] as const;
export type IdPrefix = (typeof idPrefixes)[number];

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base62 text of the given length, without modulo bias. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += alphabet[b % 62];
    }
  }
  return out;
}

/** A new opaque ID such as rnd_4kQ9...: 22 base62 characters carry 131 bits. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}
