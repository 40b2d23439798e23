import { createHash } from "node:crypto";
import { randomBase62 } from "../db/ids";

/** decisions.md: folio_ + 40 base62 characters (238 bits). */
export const newKeySecret = () => `folio_${randomBase62(40)}`;

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

export const displayPrefix = (secret: string) => secret.slice(0, 8);

export const looksLikeKeySecret = (s: string) => /^folio_[0-9A-Za-z]{40}$/.test(s);
