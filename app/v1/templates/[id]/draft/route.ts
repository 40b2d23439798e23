import { apiRoute } from "@/lib/http";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => templates.getDraft(ctx, params.id!));

export const PUT = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: templates.SaveDraftInput }, ({ ctx, params, body }) =>
  templates.saveDraft(ctx, params.id!, body),
);
