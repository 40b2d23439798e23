import { createHash } from "node:crypto";
import { db } from "../db/client";
import { rateLimited } from "../errors";
import { log } from "../log";
import { verifyPassword } from "./password";
import * as repo from "./repository";

/**
 * The limit on wrong passwords per account and client address, shared by every place a person gives
 * an existing account's password: console sign-in, accepting an invitation with an existing
 * account, and changing a password. why per account: the per-address sign-in limit alone lets one
 * address guess one person's password 10 times a minute, for good, and an admin who re-sends
 * invitations gets fresh links with fresh per-link limits. why per address too: counted per account
 * alone, anyone who knows an email (admin@localhost) could lock its owner out by guessing wrong,
 * again and again; now a guesser locks out only their own address.
 */
export const PASSWORD_FAILURES_PER_WINDOW = 10;
export const PASSWORD_FAILURE_WINDOW_MS = 15 * 60_000;

// why digests: unknown emails are counted the same way, so the limit does not tell which emails
// have an account; and neither an email nor a client address is stored.
const digest = (s: string) => createHash("sha256").update(s).digest("hex");
const accountOf = (email: string) => digest(email.trim().toLowerCase());

/**
 * Whether `password` matches `storedHash`, the hash of the account `email` (a dummy hash for an
 * unknown email), tried from `from` (the client address's rate-limit bucket,
 * lib/http/client-address.ts `addressBucket`). The check counts against the account and address
 * before scrypt runs and is taken back when it succeeds, so concurrent guesses cannot pass the
 * limit either. After PASSWORD_FAILURES_PER_WINDOW wrong passwords from one address in a window of
 * PASSWORD_FAILURE_WINDOW_MS (from the first), every check of that account from that address until
 * the window ends throws 429 RATE_LIMITED with Retry-After, even with the right password; other
 * addresses are not affected.
 */
export async function checkAccountPassword(email: string, password: string, storedHash: string, from: string, now = new Date()): Promise<boolean> {
  const key = { account: accountOf(email), address: digest(from) };
  const counted = await repo.countPasswordCheck(db(), key, now, PASSWORD_FAILURE_WINDOW_MS);
  if (counted.failures > PASSWORD_FAILURES_PER_WINDOW) {
    const retryAfter = Math.max(1, Math.ceil((counted.windowStart.getTime() + PASSWORD_FAILURE_WINDOW_MS - now.getTime()) / 1000));
    if (counted.failures === PASSWORD_FAILURES_PER_WINDOW + 1) {
      // why logged: many addresses reaching the limit on one account is someone guessing at scale.
      log().warn({ account: key.account.slice(0, 12), address: key.address.slice(0, 12) }, "wrong passwords: an address reached the limit for an account");
    }
    throw rateLimited(
      `Too many wrong passwords for this account from your address (${PASSWORD_FAILURES_PER_WINDOW} in ${PASSWORD_FAILURE_WINDOW_MS / 60_000} minutes); try again in ${Math.ceil(retryAfter / 60)} minutes`,
      retryAfter,
    );
  }
  const ok = await verifyPassword(password, storedHash);
  if (ok) await repo.uncountPasswordCheck(db(), key, counted.windowStart);
  return ok;
}

/** Drops the counts of windows that ended (the worker's maintenance job). */
export async function prunePasswordFailures(now = new Date()) {
  await repo.prunePasswordFailures(db(), new Date(now.getTime() - PASSWORD_FAILURE_WINDOW_MS));
}
