import { apiRoute } from "@/lib/http";
import { componentTemplateJsonSchema } from "@/lib/templates/schema";
import { JsonSchemaDocument } from "@/lib/templates/schemas";

/** The JSON Schema of a component template's content, for editors (the console's among them). */
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "The JSON Schema of component templates", description: "For editors: what a component template's content may hold.", responses: { 200: JsonSchemaDocument } }, () => componentTemplateJsonSchema());
