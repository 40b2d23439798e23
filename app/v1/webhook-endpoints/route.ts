import { apiRoute, created } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";
import { WebhookEndpointList, WebhookEndpointWithSecret } from "@/lib/webhooks/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", summary: "List webhook endpoints", responses: { 200: WebhookEndpointList } }, ({ ctx }) => webhooks.listEndpoints(ctx));

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", body: webhooks.CreateEndpointInput, summary: "Create a webhook endpoint", description: "Answers the endpoint with its signing secret, shown only this once.", responses: { 201: WebhookEndpointWithSecret } }, async ({ ctx, body }) =>
  created(await webhooks.createEndpoint(ctx, body)),
);
