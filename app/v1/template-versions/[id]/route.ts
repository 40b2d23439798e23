import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";
import { TemplateVersion } from "@/lib/templates/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get a template version", description: "With its content.", responses: { 200: TemplateVersion } }, ({ ctx, params }) => templates.getVersion(ctx, params.id!));
