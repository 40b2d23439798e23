"use server";
import { headers } from "next/headers";
import { limitInvitationAccept, limitPasswordResetRequest, limitPublicAction } from "@/lib/http/account-limits";
import { addressBucket, clientAddress } from "@/lib/http/client-address";
import { runPublicAction } from "@/lib/console/public-action";
import * as people from "@/lib/people";

// why each counts the address first (after runPublicAction's same-origin check, so a page on
// another site cannot spend a visitor's allowance): the verbs behind these pages answer anyone.

/** Accepts an invitation (a new account, or an existing one's password); the page then signs the person in. */
export async function acceptInvitationAction(input: people.AcceptInvitationInput) {
  return runPublicAction(async () => {
    const h = await headers();
    await limitPublicAction(h);
    await limitInvitationAccept(String(input?.token ?? ""));
    return people.acceptInvitation(input, addressBucket(clientAddress(h)));
  });
}

/** "Forgot password": the same answer for every address. */
export async function requestPasswordResetAction(input: people.RequestPasswordResetInput) {
  return runPublicAction(async () => {
    await limitPublicAction(await headers());
    await limitPasswordResetRequest(String(input?.email ?? ""));
    return people.requestPasswordReset(input);
  });
}

/** Sets a new password with a reset link. */
export async function resetPasswordAction(input: people.ResetPasswordInput) {
  return runPublicAction(async () => {
    await limitPublicAction(await headers());
    return people.resetPassword(input);
  });
}
