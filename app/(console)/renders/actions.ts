"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as renders from "@/lib/renders";

const RenderId = z.strictObject({ id: z.string().min(1).max(128) });

/** Cancels a queued or processing render: the verb of POST /v1/renders/{id}/cancel (render:cancel; 409 once ended). */
export const cancelRenderAction = consoleAction(RenderId, async (ctx, { id }) => {
  const r = await renders.cancelRender(ctx, id);
  revalidatePath("/renders");
  return { state: r.state };
});
