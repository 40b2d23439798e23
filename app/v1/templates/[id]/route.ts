import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ scope: "template:read" }, ({ ctx, params }) => templates.getTemplate(ctx, params.id!));

export const PATCH = apiRoute({ scope: "template:write", body: templates.UpdateTemplateInput }, ({ ctx, params, body }) =>
  templates.updateTemplate(ctx, params.id!, body),
);

export const DELETE = apiRoute({ scope: "template:write" }, ({ ctx, params }) => templates.deleteTemplates(ctx, [params.id!]));
