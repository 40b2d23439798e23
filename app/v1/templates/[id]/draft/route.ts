import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";
import { Draft } from "@/lib/templates/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get a template's draft", responses: { 200: Draft } }, ({ ctx, params }) => templates.getDraft(ctx, params.id!));

// why no base scope: template:write, or template:content for a change of content field values only (the verb checks which).
// docs/api.md, Handlebars templates: bodies up to 6 MiB, so content at its 5 MB source limit fits.
export const PUT = apiRoute({ auth: "apiKeyOrSession", body: templates.SaveDraftInput, bodyLimit: templates.TEMPLATE_BODY_LIMIT, summary: "Save a template's draft", description: "Saves a new revision when expectedRevision is the current one, else 409 CONFLICT with the current revision. Needs template:write, or template:content for a change of content field values only.", responses: { 200: Draft } }, ({ ctx, params, body }) =>
  templates.saveDraft(ctx, params.id!, body),
);
