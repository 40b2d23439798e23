/**
 * Folio's MCP server (docs/api.md, MCP server): one McpServer per HTTP request, for the caller's
 * Ctx. Every tool and resource calls the verbs the /v1 handlers call with that Ctx, so scopes,
 * workspace ownership, allowances and limits hold here exactly as there; nothing here decides a
 * business rule of its own.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import type { Ctx } from "../auth/context";
import * as templates from "../templates";
import { resourceError } from "./results";
import { registerRenderTools } from "./render-tools";
import { registerTemplateTools, templateResource } from "./template-tools";

/** The scheme and path of a template as a resource. */
export const TEMPLATE_URI = "folio://templates/{id}";
/** How many templates resources/list names: the newest; the list_templates tool pages through all. */
const RESOURCE_LIST_LIMIT = 100;

export function buildServer(ctx: Ctx): McpServer {
  const server = new McpServer(
    { name: "folio", title: "Folio", version: "1" },
    {
      instructions:
        "Folio renders PDF and images from templates or your own HTML. list_templates shows templates with the data each expects; " +
        "check_data says every problem of data before a render; preview shows a page as an image; render makes the file and gives a download link.",
    },
  );
  registerTemplateTools(server, ctx);
  registerRenderTools(server, ctx);

  server.registerResource(
    "template",
    new ResourceTemplate(TEMPLATE_URI, {
      list: async () => {
        try {
          const page = await templates.listTemplates(ctx, { limit: RESOURCE_LIST_LIMIT });
          return {
            resources: page.items.map((t) => ({
              uri: `folio://templates/${t.id}`,
              name: t.name,
              ...(t.description ? { description: t.description } : {}),
              mimeType: "application/json",
            })),
          };
        } catch (err) {
          throw resourceError(err, ctx, "folio://templates");
        }
      },
    }),
    {
      title: "Template",
      description: "A template of the workspace as JSON: its name, kind, draft content, the data schema its data must match, and its newest published version.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      try {
        const id = String(variables.id);
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(await templateResource(ctx, id), null, 2) }] };
      } catch (err) {
        throw resourceError(err, ctx, uri.href);
      }
    },
  );
  return server;
}
