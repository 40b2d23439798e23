import { apiRoute } from "@/lib/http";
import { OrderedPageQuery } from "@/lib/paging";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: OrderedPageQuery }, ({ ctx, params, query }) =>
  templates.listRevisions(ctx, params.id!, query),
);
