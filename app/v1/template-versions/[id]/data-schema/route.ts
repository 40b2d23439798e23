import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";
import { JsonSchemaDocument } from "@/lib/templates/schemas";

/** The data schema a published version checks data against ({} when it declares none: any data object). */
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get a version's data schema", description: "{} when the version declares none: any data object.", responses: { 200: JsonSchemaDocument } }, ({ ctx, params }) => templates.getVersionDataSchema(ctx, params.id!));
