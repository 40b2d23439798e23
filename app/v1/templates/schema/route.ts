import { apiRoute } from "@/lib/http";
import { componentTemplateJsonSchema } from "@/lib/templates/schema";

/** The JSON Schema of a component template's content, for editors (the console's among them). */
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, () => componentTemplateJsonSchema());
