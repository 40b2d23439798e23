import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";
import { WebhookDeliveryPage } from "@/lib/webhooks/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", query: webhooks.DeliveryListQuery, summary: "List an endpoint's deliveries", description: "Newest first.", responses: { 200: WebhookDeliveryPage } }, ({ ctx, params, query }) =>
  webhooks.listDeliveries(ctx, params.id!, query),
);
