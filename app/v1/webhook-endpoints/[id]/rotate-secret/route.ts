import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";
import { WebhookEndpointWithSecret } from "@/lib/webhooks/schemas";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", summary: "Rotate an endpoint's signing secret", description: "Answers the endpoint with its new secret, shown only this once.", responses: { 200: WebhookEndpointWithSecret } }, ({ ctx, params }) => webhooks.rotateSecret(ctx, params.id!));
