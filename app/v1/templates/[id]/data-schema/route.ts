import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

/** The data schema of the template's current draft ({} when it declares none: any data object). */
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => templates.getDraftDataSchema(ctx, params.id!));
