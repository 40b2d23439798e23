import { recordAudit } from "../audit";
import type { Ctx } from "../auth/context";
import { db, withTx, type Tx } from "../db/client";
import { AppError, badRequest, invalidValue, notFound } from "../errors";
import { log } from "../log";
import { actionMail, mailConfigured, sendMail } from "../mail";
import { hashPassword } from "../users/password";
import { checkAccountPassword } from "../users/password-attempts";
import * as userRepo from "../users/repository";
import { requireUser } from "./actor";
import * as repo from "./repository";
import { ChangePasswordInput, parseInput, RequestPasswordResetInput, ResetPasswordInput, UpdateProfileInput } from "./schemas";
import { hashToken, looksLikeToken, newToken, resetLink } from "./tokens";

/** A "forgot password" link is valid this long, once. */
export const RESET_TTL_MS = 60 * 60_000;

export type Profile = { userId: string; email: string; name?: string };

/** The signed-in person's own profile. */
export async function getProfile(ctx: Ctx): Promise<Profile> {
  const userId = requireUser(ctx);
  const u = await repo.findUserById(db(), userId);
  if (!u) throw notFound("user", userId);
  return { userId, email: u.email, ...(u.name ? { name: u.name } : {}) };
}

/** Changes the signed-in person's own name; audited in the workspace they act in. */
export async function updateProfile(ctx: Ctx, input: UpdateProfileInput): Promise<Profile> {
  const userId = requireUser(ctx);
  const v = parseInput(UpdateProfileInput, input);
  await withTx(async (tx) => {
    await repo.updateUser(tx, userId, { name: v.name });
    await recordAudit(tx, ctx, "user.update_profile", { type: "user", id: userId }, { name: v.name });
  });
  return getProfile(ctx);
}

/**
 * Changes the signed-in person's own password; the current one is required, and a wrong one
 * counts against the account's limit on wrong passwords from `opts.from`, the client address's
 * bucket (lib/users/password-attempts.ts). Every
 * other console session of the person ends (on its next request); `keepSessionId`, the session
 * making the change, stays signed in. Unused "forgot password" links end. Callers also limit
 * attempts per person (lib/http/account-limits.ts).
 */
export async function changePassword(ctx: Ctx, input: ChangePasswordInput, opts: { from: string; keepSessionId?: string }): Promise<void> {
  const userId = requireUser(ctx);
  const v = parseInput(ChangePasswordInput, input);
  const u = await repo.findUserById(db(), userId);
  if (!u) throw notFound("user", userId);
  if (!(await checkAccountPassword(u.email, v.currentPassword, u.passwordHash, opts.from))) throw invalidValue("currentPassword", "is not your current password");
  if (v.currentPassword === v.newPassword) throw invalidValue("newPassword", "must differ from your current password");
  const passwordHash = await hashPassword(v.newPassword);
  await withTx(async (tx) => {
    await setPassword(tx, userId, passwordHash, opts.keepSessionId ?? null);
    await recordAudit(tx, ctx, "user.change_password", { type: "user", id: userId });
  });
}

/** A new password: unused reset links and every console session but `keepSessionId` end. */
async function setPassword(tx: Tx, userId: string, passwordHash: string, keepSessionId: string | null) {
  await repo.updateUser(tx, userId, { passwordHash });
  await repo.useResetTokens(tx, userId, new Date());
  await userRepo.endSessions(tx, userId, keepSessionId);
}

/**
 * "Sign out everywhere": every console session of the signed-in person ends, this one included
 * (each on its next request, on every web node). Audited in the workspace they act in.
 */
export async function signOutEverywhere(ctx: Ctx): Promise<void> {
  const userId = requireUser(ctx);
  await withTx(async (tx) => {
    await userRepo.endSessions(tx, userId, null);
    await recordAudit(tx, ctx, "user.sign_out_everywhere", { type: "user", id: userId });
  });
}

const notAvailable = () =>
  new AppError("NOT_FOUND", "Password reset by email is not available: this server sends no mail. Ask your administrator to reset your password");

/**
 * "Forgot password": when mail is configured, emails a link valid one hour, once, if the address
 * has an account. The answer is the same either way (no account enumeration), and the mail is
 * sent after the answer, so its time does not show either. Callers apply the limit per address
 * first (lib/http/account-limits.ts), which counts every address alike.
 */
export async function requestPasswordReset(input: RequestPasswordResetInput): Promise<{ sent: true }> {
  if (!mailConfigured()) throw notAvailable();
  const v = parseInput(RequestPasswordResetInput, input);
  const user = await userRepo.findUserByEmail(db(), v.email);
  if (user) {
    const token = newToken();
    const createdAt = new Date();
    await repo.insertResetToken(db(), { tokenHash: hashToken(token), userId: user.id, createdAt, expiresAt: new Date(createdAt.getTime() + RESET_TTL_MS) });
    const mail = actionMail(user.email, "Reset your Folio password", {
      paragraphs: ["Someone (we hope you) asked to reset the password of your Folio account."],
      action: "Choose a new password",
      link: resetLink(token),
      note: "The link works once and expires in one hour. If you did not ask for it, ignore this email: your password stays as it is.",
    });
    void sendMail(mail).catch((err: unknown) => log().warn({ err }, "could not send a password reset mail"));
  }
  return { sent: true };
}

export type PasswordResetState = "valid" | "expired" | "used" | "invalid";

/** The state of a reset link, for its page. */
export async function getPasswordReset(token: string): Promise<{ state: PasswordResetState; email?: string }> {
  const row = looksLikeToken(token) ? await repo.findResetToken(db(), hashToken(token)) : undefined;
  if (!row) return { state: "invalid" };
  const state = row.usedAt ? "used" : row.expiresAt <= new Date() ? "expired" : "valid";
  if (state !== "valid") return { state };
  const u = await repo.findUserById(db(), row.userId);
  return u ? { state, email: u.email } : { state: "invalid" };
}

const RESET_REFUSALS: Record<Exclude<PasswordResetState, "valid">, string> = {
  invalid: "This password reset link is not valid; check that you copied all of it, or ask for a new one",
  expired: "This password reset link has expired; ask for a new one",
  used: "This password reset link was already used; ask for a new one",
};

/** The refusal for a reset link that cannot be used, or undefined for one that can. */
function resetRefusal(row: { usedAt: Date | null; expiresAt: Date } | undefined): AppError | undefined {
  if (!row) return badRequest(RESET_REFUSALS.invalid);
  if (row.usedAt) return badRequest(RESET_REFUSALS.used);
  if (row.expiresAt <= new Date()) return badRequest(RESET_REFUSALS.expired);
  return undefined;
}

/**
 * Sets a new password with a reset link: the link and every other unused link of the person end,
 * and so does every console session of the person. The link is checked before the new password
 * is hashed, so a made-up link costs no scrypt. Audited in each workspace the person belongs to.
 */
export async function resetPassword(input: ResetPasswordInput): Promise<{ email: string }> {
  const v = parseInput(ResetPasswordInput, input);
  if (!looksLikeToken(v.token)) throw badRequest(RESET_REFUSALS.invalid);
  const tokenHash = hashToken(v.token);
  // why twice: the first look refuses a bad link without hashing; the locked second one decides.
  const early = resetRefusal(await repo.findResetToken(db(), tokenHash));
  if (early) throw early;
  const passwordHash = await hashPassword(v.password);
  return withTx(async (tx) => {
    const row = await repo.findResetToken(tx, tokenHash, { forUpdate: true });
    const refusal = resetRefusal(row);
    if (refusal || !row) throw refusal ?? badRequest(RESET_REFUSALS.invalid);
    const u = await repo.findUserById(tx, row.userId);
    if (!u) throw badRequest(RESET_REFUSALS.invalid);
    await setPassword(tx, u.id, passwordHash, null);
    for (const { workspaceId } of await repo.workspacesOf(tx, u.id)) {
      const ctx: Ctx = { workspaceId, actor: { type: "user", userId: u.id, scopes: [], platformAdmin: u.platformAdmin } };
      await recordAudit(tx, ctx, "user.reset_password", { type: "user", id: u.id }, { via: "email link" });
    }
    return { email: u.email };
  });
}
