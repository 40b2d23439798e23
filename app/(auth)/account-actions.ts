"use server";
import { limitInvitationAccept, limitPasswordResetRequest } from "@/lib/http/account-limits";
import { runPublicAction } from "@/lib/console/public-action";
import * as people from "@/lib/people";

/** Accepts an invitation (a new account, or an existing one's password); the page then signs the person in. */
export async function acceptInvitationAction(input: people.AcceptInvitationInput) {
  return runPublicAction(async () => {
    await limitInvitationAccept(String(input?.token ?? ""));
    return people.acceptInvitation(input);
  });
}

/** "Forgot password": the same answer for every address. */
export async function requestPasswordResetAction(input: people.RequestPasswordResetInput) {
  return runPublicAction(async () => {
    await limitPasswordResetRequest(String(input?.email ?? ""));
    return people.requestPasswordReset(input);
  });
}

/** Sets a new password with a reset link. */
export async function resetPasswordAction(input: people.ResetPasswordInput) {
  return runPublicAction(() => people.resetPassword(input));
}
