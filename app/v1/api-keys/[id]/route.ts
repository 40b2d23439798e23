import { apiRoute } from "@/lib/http";
import * as keys from "@/lib/keys";
import { Deleted } from "@/lib/http/openapi/schemas";

export const DELETE = apiRoute({ auth: "session", summary: "Delete an API key", responses: { 200: Deleted } }, ({ ctx, params }) => keys.deleteKey(ctx, params.id!));
