import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";
import { JsonSchemaDocument } from "@/lib/templates/schemas";

/** The data schema of the template's current draft ({} when it declares none: any data object). */
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get the draft's data schema", description: "{} when the draft declares none: any data object.", responses: { 200: JsonSchemaDocument } }, ({ ctx, params }) => templates.getDraftDataSchema(ctx, params.id!));
