import { apiRoute, created } from "@/lib/http";
import * as keys from "@/lib/keys";
import { ApiKeyList, ApiKeyWithSecret } from "@/lib/keys/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "admin:manage", summary: "List API keys", description: "Every key of the workspace, never their secrets.", responses: { 200: ApiKeyList } }, ({ ctx }) => keys.listKeys(ctx));

export const POST = apiRoute({ auth: "session", body: keys.CreateKeyInput, summary: "Create an API key", description: "Answers the key with its secret, shown only this once.", responses: { 201: ApiKeyWithSecret } }, async ({ ctx, body }) =>
  created(await keys.createKey(ctx, body)),
);
