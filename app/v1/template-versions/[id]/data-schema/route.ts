import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

/** The data schema a published version checks data against ({} when it declares none: any data object). */
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => templates.getVersionDataSchema(ctx, params.id!));
