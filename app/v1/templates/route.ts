import { apiRoute, Reply } from "@/lib/http";
import * as templates from "@/lib/templates";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.CreateTemplateInput }, async ({ ctx, body }) =>
  new Reply(201, await templates.createTemplate(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: templates.ListTemplatesQuery }, ({ ctx, query }) => templates.listTemplates(ctx, query));
