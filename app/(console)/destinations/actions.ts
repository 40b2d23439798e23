"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as destinations from "@/lib/destinations";
import { deleteDestination } from "@/lib/renders/destinations";

const Id = z.string().min(1).max(128);

/** The verbs of /v1/storage-destinations (owners and admins; lib/destinations checks destination:manage). */
export const createDestinationAction = consoleAction(destinations.CreateDestinationInput, async (ctx, input) => {
  const created = await destinations.createDestination(ctx, input);
  revalidatePath("/destinations");
  return created;
});

export const updateDestinationAction = consoleAction(z.strictObject({ id: Id, change: destinations.UpdateDestinationInput }), async (ctx, { id, change }) => {
  const updated = await destinations.updateDestination(ctx, id, change);
  revalidatePath("/destinations");
  return updated;
});

export const deleteDestinationAction = consoleAction(z.strictObject({ id: Id }), async (ctx, { id }) => {
  const deleted = await deleteDestination(ctx, id);
  revalidatePath("/destinations");
  return deleted;
});
