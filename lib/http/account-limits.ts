import { createHash } from "node:crypto";
import { addressBucket, clientAddress, type HeaderSource } from "./client-address";
import { countRequest } from "./rate-limit";

/**
 * Limits on the console's account flows, counted like sign-in attempts (per clock minute, shared
 * by all web nodes). The console's server actions call them before the lib/people verb, as
 * auth-guard does before next-auth. Each throws 429 RATE_LIMITED with Retry-After over its limit.
 * The limit on wrong passwords per account, shared by sign-in, accepting an invitation and
 * changing a password, is the verbs' own: lib/users/password-attempts.ts.
 */

/**
 * The public pages' actions (accepting an invitation, "forgot password", setting a password with
 * a reset link) per client address, all together: each does real work (a query, a mail, scrypt)
 * for anyone who asks.
 */
export const PUBLIC_ACTIONS_PER_MINUTE = 10;

/** "Forgot password" requests per email address; the same for addresses with and without an account. */
export const RESET_REQUESTS_PER_MINUTE = 5;
/** Attempts to accept one invitation (a person with an account gives its password there). */
export const ACCEPT_ATTEMPTS_PER_MINUTE = 10;
/** Password changes (each checks the current password) per person. */
export const PASSWORD_CHANGES_PER_MINUTE = 10;

// why hashed: bucket names are stored in rate_limit_counters; addresses and tokens are not kept there.
const digest = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 32);

export function limitPasswordResetRequest(email: string) {
  return countRequest(`reset:${digest(email.trim().toLowerCase())}`, RESET_REQUESTS_PER_MINUTE, new Date(), "password reset requests for this address");
}

export function limitInvitationAccept(token: string) {
  return countRequest(`accept:${digest(token)}`, ACCEPT_ATTEMPTS_PER_MINUTE, new Date(), "attempts to accept this invitation");
}

export function limitPasswordChange(userId: string) {
  return countRequest(`password:${userId}`, PASSWORD_CHANGES_PER_MINUTE, new Date(), "password changes");
}

/** Counts one public action against the client address (the one lib/server/web.ts found, not a header the client chose). */
export function limitPublicAction(headers: HeaderSource) {
  return countRequest(`public:${digest(addressBucket(clientAddress(headers)))}`, PUBLIC_ACTIONS_PER_MINUTE, new Date(), "requests to the sign-in pages' forms");
}
