import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => templates.getDraft(ctx, params.id!));

// why no base scope: template:write, or template:content for a change of content field values only (the verb checks which).
export const PUT = apiRoute({ auth: "apiKeyOrSession", body: templates.SaveDraftInput }, ({ ctx, params, body }) =>
  templates.saveDraft(ctx, params.id!, body),
);
