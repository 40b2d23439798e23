import { apiRoute, created } from "@/lib/http";
import * as keys from "@/lib/keys";

export const POST = apiRoute({ auth: "session" }, async ({ ctx, params }) => created(await keys.rotateKey(ctx, params.id!)));
