import { createHash } from "node:crypto";
import { config } from "../config";
import { randomBase62 } from "../db/ids";

/** A link token: 43 base62 characters (256 bits). Shown once; only hashToken(token) is stored. */
export const newToken = () => randomBase62(43);

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Tokens look like newToken()'s; anything else is refused before a query. */
export const looksLikeToken = (token: string) => /^[0-9A-Za-z]{43}$/.test(token);

export const invitationLink = (token: string) => `${config().PUBLIC_URL}/invitations/${token}`;
export const resetLink = (token: string) => `${config().PUBLIC_URL}/reset-password/${token}`;
