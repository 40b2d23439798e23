import { apiRoute } from "@/lib/http";
import { OrderedPageQuery } from "@/lib/paging";
import * as templates from "@/lib/templates";
import { RevisionPage } from "@/lib/templates/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: OrderedPageQuery, summary: "List a template's draft revisions", responses: { 200: RevisionPage } }, ({ ctx, params, query }) =>
  templates.listRevisions(ctx, params.id!, query),
);
