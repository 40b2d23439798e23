import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";
import { WebhookDelivery } from "@/lib/webhooks/schemas";

/** Beyond the spec: sends the delivery again now (same webhook-id); answers the record after the attempt. */
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", summary: "Send a delivery again", description: "Sends it now with the same webhook-id; answers the delivery after the attempt.", responses: { 200: WebhookDelivery } }, ({ ctx, params }) =>
  webhooks.redeliver(ctx, params.id!, params.deliveryId!),
);
