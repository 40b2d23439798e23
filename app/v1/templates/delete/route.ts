import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";
import { Deleted } from "@/lib/http/openapi/schemas";

/** Deletes up to 100 templates in one request, all or none. */
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.DeleteTemplatesInput, summary: "Delete several templates", description: "Up to 100 templates in one request, all or none.", responses: { 200: Deleted } }, ({ ctx, body }) =>
  templates.deleteTemplates(ctx, body.ids),
);
