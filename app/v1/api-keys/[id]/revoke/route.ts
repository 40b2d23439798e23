import { apiRoute } from "@/lib/http";
import * as keys from "@/lib/keys";

export const POST = apiRoute({ auth: "session" }, ({ ctx, params }) => keys.revokeKey(ctx, params.id!));
