import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

/** Beyond the spec: sends one signed webhook.test event now and answers its outcome (not recorded, not a render). */
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage" }, ({ ctx, params }) => webhooks.sendTestEvent(ctx, params.id!));
