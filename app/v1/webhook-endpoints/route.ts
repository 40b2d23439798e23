import { apiRoute, created } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage" }, ({ ctx }) => webhooks.listEndpoints(ctx));

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", body: webhooks.CreateEndpointInput }, async ({ ctx, body }) =>
  created(await webhooks.createEndpoint(ctx, body)),
);
