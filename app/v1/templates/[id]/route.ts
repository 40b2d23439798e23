import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";
import { Template } from "@/lib/templates/schemas";
import { Deleted } from "@/lib/http/openapi/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get a template", description: "With its current draft.", responses: { 200: Template } }, ({ ctx, params }) => templates.getTemplate(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.UpdateTemplateInput, summary: "Rename, describe or move a template", responses: { 200: Template } }, ({ ctx, params, body }) =>
  templates.updateTemplate(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", summary: "Delete a template", description: "With its drafts and versions.", responses: { 200: Deleted } }, ({ ctx, params }) => templates.deleteTemplates(ctx, [params.id!]));
