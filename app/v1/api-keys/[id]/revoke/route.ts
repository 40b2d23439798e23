import { apiRoute } from "@/lib/http";
import * as keys from "@/lib/keys";
import { ApiKey } from "@/lib/keys/schemas";

export const POST = apiRoute({ auth: "session", summary: "Revoke an API key", description: "The key stops working at once; it stays listed as revoked.", responses: { 200: ApiKey } }, ({ ctx, params }) => keys.revokeKey(ctx, params.id!));
