"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import { PlatformWorkspaceInput, updatePlatformWorkspace } from "@/lib/workspaces";

/**
 * The platform page's changes: the same verb as PATCH /v1/platform/workspaces/{id}, with the
 * signed-in person's ctx; the verb refuses anyone but a platform administrator (403), so the
 * client is never trusted for it.
 */
const Input = PlatformWorkspaceInput.extend({ id: z.string().min(1).max(100) });

export const updatePlatformWorkspaceAction = consoleAction(Input, async (ctx, { id, ...changes }) => {
  const w = await updatePlatformWorkspace(ctx, id, changes);
  revalidatePath("/platform");
  return w;
}, { effect: "platform" }); // why: an administrator whose own workspace is suspended still runs the platform
