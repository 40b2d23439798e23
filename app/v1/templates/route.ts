import { apiRoute, Reply } from "@/lib/http";
import { PageQuery } from "@/lib/paging";
import * as templates from "@/lib/templates";

export const POST = apiRoute({ scope: "template:write", body: templates.CreateTemplateInput }, async ({ ctx, body }) =>
  new Reply(201, await templates.createTemplate(ctx, body)),
);

export const GET = apiRoute({ scope: "template:read", query: PageQuery }, ({ ctx, query }) => templates.listTemplates(ctx, query));
