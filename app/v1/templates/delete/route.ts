import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

/** Deletes up to 100 templates in one request, all or none. */
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.DeleteTemplatesInput }, ({ ctx, body }) =>
  templates.deleteTemplates(ctx, body.ids),
);
