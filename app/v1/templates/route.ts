import { apiRoute, Reply } from "@/lib/http";
import * as templates from "@/lib/templates";

// docs/api.md, Handlebars templates: bodies up to 6 MiB, so content at its 5 MB source limit fits.
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.CreateTemplateInput, bodyLimit: templates.TEMPLATE_BODY_LIMIT }, async ({ ctx, body }) =>
  new Reply(201, await templates.createTemplate(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: templates.ListTemplatesQuery }, ({ ctx, query }) => templates.listTemplates(ctx, query));
