import { createHash } from "node:crypto";
import { db } from "../db/client";
import { rateLimited } from "../errors";
import { verifyPassword } from "./password";
import * as repo from "./repository";

/**
 * The limit on wrong passwords per account, shared by every place a person gives an existing
 * account's password: console sign-in, accepting an invitation with an existing account, and
 * changing a password. why per account: the per-address and per-link limits do not stop someone
 * with many addresses, or an admin who re-sends invitations for fresh links, from guessing one
 * person's password.
 */
export const PASSWORD_FAILURES_PER_WINDOW = 10;
export const PASSWORD_FAILURE_WINDOW_MS = 15 * 60_000;

// why a digest of the address, not the user id: unknown addresses are counted the same way, so the
// limit does not tell which addresses have an account; and no address is stored.
const accountOf = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

/**
 * Whether `password` matches `storedHash`, the hash of the account `email` (a dummy hash for an
 * unknown address). The check counts against the account before scrypt runs and is taken back
 * when it succeeds, so concurrent guesses cannot pass the limit either. After
 * PASSWORD_FAILURES_PER_WINDOW wrong passwords in a window of PASSWORD_FAILURE_WINDOW_MS (from the
 * first), every check until the window ends throws 429 RATE_LIMITED with Retry-After, even with
 * the right password.
 */
export async function checkAccountPassword(email: string, password: string, storedHash: string, now = new Date()): Promise<boolean> {
  const account = accountOf(email);
  const counted = await repo.countPasswordCheck(db(), account, now, PASSWORD_FAILURE_WINDOW_MS);
  if (counted.failures > PASSWORD_FAILURES_PER_WINDOW) {
    const retryAfter = Math.max(1, Math.ceil((counted.windowStart.getTime() + PASSWORD_FAILURE_WINDOW_MS - now.getTime()) / 1000));
    throw rateLimited(
      `Too many wrong passwords for this account (${PASSWORD_FAILURES_PER_WINDOW} in ${PASSWORD_FAILURE_WINDOW_MS / 60_000} minutes); try again in ${Math.ceil(retryAfter / 60)} minutes`,
      retryAfter,
    );
  }
  const ok = await verifyPassword(password, storedHash);
  if (ok) await repo.uncountPasswordCheck(db(), account, counted.windowStart);
  return ok;
}

/** Drops the counts of windows that ended (the worker's maintenance job). */
export async function prunePasswordFailures(now = new Date()) {
  await repo.prunePasswordFailures(db(), new Date(now.getTime() - PASSWORD_FAILURE_WINDOW_MS));
}
