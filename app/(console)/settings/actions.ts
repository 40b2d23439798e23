"use server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import { limitPasswordChange } from "@/lib/http/account-limits";
import { addressBucket, clientAddress } from "@/lib/http/client-address";
import * as people from "@/lib/people";
import { renameWorkspace, WorkspaceName } from "@/lib/workspaces";

export const renameWorkspaceAction = consoleAction(z.strictObject({ name: WorkspaceName }), async (ctx, v) => {
  const w = await renameWorkspace(ctx, v.name);
  revalidatePath("/", "layout");
  return w;
});

// why effect "account": a person's profile, password and sessions span their workspaces; one being suspended does not lock them.
export const updateProfileAction = consoleAction(
  people.UpdateProfileInput,
  async (ctx, v) => {
    const p = await people.updateProfile(ctx, v);
    revalidatePath("/", "layout");
    return p;
  },
  { effect: "account" },
);

export const changePasswordAction = consoleAction(people.ChangePasswordInput, async (ctx, v, session) => {
  await limitPasswordChange(session.user.id);
  // why keep this session: the person changing the password is here; every other session ends.
  await people.changePassword(ctx, v, { keepSessionId: session.sessionId, from: addressBucket(clientAddress(await headers())) });
  return { changed: true };
}, { effect: "account" });

/** Ends every console session of the person, this one too; the page then goes to sign-in. */
export const signOutEverywhereAction = consoleAction(z.strictObject({}), async (ctx) => {
  await people.signOutEverywhere(ctx);
  return { signedOut: true };
}, { effect: "account" });
