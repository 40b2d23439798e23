import { apiRoute } from "@/lib/http";
import * as keys from "@/lib/keys";

export const DELETE = apiRoute({ auth: "session" }, ({ ctx, params }) => keys.deleteKey(ctx, params.id!));
