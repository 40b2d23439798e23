import { apiRoute, created } from "@/lib/http";
import * as keys from "@/lib/keys";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "admin:manage" }, ({ ctx }) => keys.listKeys(ctx));

export const POST = apiRoute({ auth: "session", body: keys.CreateKeyInput }, async ({ ctx, body }) =>
  created(await keys.createKey(ctx, body)),
);
