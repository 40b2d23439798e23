import { createHash } from "node:crypto";
import { countRequest } from "./rate-limit";

/**
 * Limits on the console's account flows, counted like sign-in attempts (per clock minute, shared
 * by all web nodes). The console's server actions call them before the lib/people verb, as
 * auth-guard does before next-auth. Each throws 429 RATE_LIMITED with Retry-After over its limit.
 */

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
