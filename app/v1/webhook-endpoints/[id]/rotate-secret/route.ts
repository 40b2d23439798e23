import { apiRoute } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "webhook:manage" }, ({ ctx, params }) => webhooks.rotateSecret(ctx, params.id!));
