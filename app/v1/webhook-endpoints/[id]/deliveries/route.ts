import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", query: webhooks.DeliveryListQuery }, ({ ctx, params, query }) =>
  webhooks.listDeliveries(ctx, params.id!, query),
);
