import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => templates.getVersion(ctx, params.id!));
