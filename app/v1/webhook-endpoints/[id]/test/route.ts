import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";
import { TestEventResult } from "@/lib/webhooks/schemas";

/** Beyond the spec: sends one signed webhook.test event now and answers its outcome (not recorded, not a render). */
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage", summary: "Send a test event", description: "Sends one signed webhook.test event now and answers its outcome (not recorded).", responses: { 200: TestEventResult } }, ({ ctx, params }) => webhooks.sendTestEvent(ctx, params.id!));
