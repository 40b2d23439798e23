import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage" }, ({ ctx, params }) => webhooks.getEndpoint(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", body: webhooks.UpdateEndpointInput }, ({ ctx, params, body }) =>
  webhooks.updateEndpoint(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage" }, ({ ctx, params }) => webhooks.deleteEndpoint(ctx, params.id!));
