import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

/** Beyond the spec: sends the delivery again now (same webhook-id); answers the record after the attempt. */
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage" }, ({ ctx, params }) =>
  webhooks.redeliver(ctx, params.id!, params.deliveryId!),
);
