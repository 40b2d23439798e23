"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as people from "@/lib/people";

const done = <T>(v: T) => {
  revalidatePath("/people");
  return v;
};

const Id = z.strictObject({ id: z.string().min(1).max(100) });
const UserId = z.strictObject({ userId: z.string().min(1).max(100) });

export const inviteAction = consoleAction(people.CreateInvitationInput, async (ctx, v) => done(await people.createInvitation(ctx, v)));
export const resendInvitationAction = consoleAction(Id, async (ctx, v) => done(await people.resendInvitation(ctx, v.id)));
export const cancelInvitationAction = consoleAction(Id, async (ctx, v) => done(await people.cancelInvitation(ctx, v.id)));
export const changeRoleAction = consoleAction(people.ChangeRoleInput, async (ctx, v) => done(await people.changeRole(ctx, v)));
export const removeMemberAction = consoleAction(UserId, async (ctx, v) => done(await people.removeMember(ctx, v.userId)));
export const leaveWorkspaceAction = consoleAction(z.strictObject({}), async (ctx) => done(await people.leaveWorkspace(ctx)));
