import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => templates.getTemplate(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.UpdateTemplateInput }, ({ ctx, params, body }) =>
  templates.updateTemplate(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "template:write" }, ({ ctx, params }) => templates.deleteTemplates(ctx, [params.id!]));
