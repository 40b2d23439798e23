import { apiRoute, Reply } from "@/lib/http";
import { OrderedPageQuery } from "@/lib/paging";
import * as templates from "@/lib/templates";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: OrderedPageQuery }, ({ ctx, params, query }) =>
  templates.listVersions(ctx, params.id!, query),
);

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:publish", body: templates.PublishInput }, async ({ ctx, params, body }) =>
  new Reply(201, await templates.publish(ctx, params.id!, body.expectedRevision)),
);
