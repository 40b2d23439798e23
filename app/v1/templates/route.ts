import { apiRoute, Reply } from "@/lib/http";
import * as templates from "@/lib/templates";
import { Template, TemplatePage } from "@/lib/templates/schemas";

// docs/api.md, Handlebars templates: bodies up to 6 MiB, so content at its 5 MB source limit fits.
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.CreateTemplateInput, bodyLimit: templates.TEMPLATE_BODY_LIMIT, summary: "Create a template", description: "A component or Handlebars template with its first draft. Bodies up to 6 MiB.", responses: { 201: Template } }, async ({ ctx, body }) =>
  new Reply(201, await templates.createTemplate(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: templates.ListTemplatesQuery, summary: "List templates", description: "Newest first; q matches part of the name, folderId a folder (or root).", responses: { 200: TemplatePage } }, ({ ctx, query }) => templates.listTemplates(ctx, query));
