import { apiRoute, Reply } from "@/lib/http";
import { OrderedPageQuery } from "@/lib/paging";
import * as templates from "@/lib/templates";
import { TemplateVersion, TemplateVersionPage } from "@/lib/templates/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: OrderedPageQuery, summary: "List a template's published versions", responses: { 200: TemplateVersionPage } }, ({ ctx, params, query }) =>
  templates.listVersions(ctx, params.id!, query),
);

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:publish", body: templates.PublishInput, summary: "Publish the draft", description: "Publishes the draft revision named by expectedRevision as a new version. A Handlebars draft is checked first: a syntax error in any of its files answers 400 naming the file and line, and no version is made.", responses: { 201: TemplateVersion } }, async ({ ctx, params, body }) =>
  new Reply(201, await templates.publish(ctx, params.id!, body.expectedRevision)),
);
