"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as webhooks from "@/lib/webhooks";

const EndpointId = z.strictObject({ id: z.string().min(1).max(128) });

/** The verbs of /v1/webhook-endpoints (owners and admins; lib/webhooks checks webhook:manage). */
export const createEndpointAction = consoleAction(webhooks.CreateEndpointInput, async (ctx, input) => {
  const created = await webhooks.createEndpoint(ctx, input);
  revalidatePath("/webhooks");
  return created;
});

export const updateEndpointAction = consoleAction(EndpointId.extend({ changes: webhooks.UpdateEndpointInput }), async (ctx, { id, changes }) => {
  const updated = await webhooks.updateEndpoint(ctx, id, changes);
  revalidatePath("/webhooks");
  revalidatePath(`/webhooks/${id}`);
  return updated;
});

export const rotateSecretAction = consoleAction(EndpointId, async (ctx, { id }) => {
  const rotated = await webhooks.rotateSecret(ctx, id);
  revalidatePath("/webhooks");
  return rotated;
});

export const deleteEndpointAction = consoleAction(EndpointId, async (ctx, { id }) => {
  const deleted = await webhooks.deleteEndpoint(ctx, id);
  revalidatePath("/webhooks");
  return deleted;
});

export const sendTestEventAction = consoleAction(EndpointId, (ctx, { id }) => webhooks.sendTestEvent(ctx, id));

export const redeliverAction = consoleAction(EndpointId.extend({ deliveryId: z.string().min(1).max(128) }), async (ctx, { id, deliveryId }) => {
  const delivery = await webhooks.redeliver(ctx, id, deliveryId);
  revalidatePath(`/webhooks/${id}`);
  return delivery;
});
