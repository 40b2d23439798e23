import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";
import { WebhookEndpoint } from "@/lib/webhooks/schemas";
import { Deleted } from "@/lib/http/openapi/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", summary: "Get a webhook endpoint", responses: { 200: WebhookEndpoint } }, ({ ctx, params }) => webhooks.getEndpoint(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", body: webhooks.UpdateEndpointInput, summary: "Change a webhook endpoint", responses: { 200: WebhookEndpoint } }, ({ ctx, params, body }) =>
  webhooks.updateEndpoint(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", summary: "Delete a webhook endpoint", responses: { 200: Deleted } }, ({ ctx, params }) => webhooks.deleteEndpoint(ctx, params.id!));
