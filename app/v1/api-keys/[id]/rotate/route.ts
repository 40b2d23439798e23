import { apiRoute, created } from "@/lib/http";
import * as keys from "@/lib/keys";
import { ApiKeyWithSecret } from "@/lib/keys/schemas";

export const POST = apiRoute({ auth: "session", summary: "Rotate an API key", description: "Answers a new key with its secret; the old one keeps working for at most 15 minutes.", responses: { 201: ApiKeyWithSecret } }, async ({ ctx, params }) => created(await keys.rotateKey(ctx, params.id!)));
