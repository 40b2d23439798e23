import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";

/**
 * The /v1 operations that have no apiRoute for the generator to read, so they are described here:
 * the signed download and upload links the web server answers without Next.js (lib/server/web.ts;
 * the coverage test, lib/http/openapi/coverage.unit.test.ts, checks them against web.ts's
 * prefixes), and the MCP server's endpoint, which speaks JSON-RPC (its tools are described by the
 * server itself, through the protocol's tools/list).
 */
const Token = z.object({ token: z.string().min(1).meta({ description: "The signed token of the link (the link is the whole credential)" }) });
/** A message of the Model Context Protocol: JSON-RPC 2.0 (its methods and tools are the protocol's). */
const McpMessage = z.looseObject({ jsonrpc: z.literal("2.0") }).meta({ id: "McpMessage", description: "A JSON-RPC 2.0 message of the Model Context Protocol" });
const headers = { "x-request-id": { $ref: "#/components/headers/RequestId" } };
const errors = {
  "403": { $ref: "#/components/responses/Forbidden" },
  "404": { $ref: "#/components/responses/NotFound" },
  "429": { $ref: "#/components/responses/RateLimited" },
  "500": { $ref: "#/components/responses/Internal" },
  "503": { $ref: "#/components/responses/Unavailable" },
  default: { $ref: "#/components/responses/Error" },
};

export const extraOperations: Record<string, ZodOpenApiOperationObject> = {
  "GET /v1/storage/downloads/{token}": {
    operationId: "getStorageDownloadsByToken",
    summary: "Download a file by its signed link",
    description:
      "The downloadUrl of a render, an asset or a combined batch PDF: valid for five minutes, needs no other credential. An expired or altered link answers 403.",
    tags: ["Storage"],
    security: [],
    "x-folio-auth": "link",
    "x-folio-scopes": [],
    requestParams: { path: Token },
    responses: {
      "200": {
        description: "The file, with its content type and a Content-Disposition naming it",
        headers,
        content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
      },
      ...errors,
    },
  },
  "PUT /v1/storage/uploads/{token}": {
    operationId: "putStorageUploadsByToken",
    summary: "Upload an asset's bytes by its signed link",
    description:
      "The uploadUrl that POST /v1/assets answered, with its uploadHeaders; the bytes must match the registered size and sha256. Any origin may call it (CORS): the link is the whole credential.",
    tags: ["Storage"],
    security: [],
    "x-folio-auth": "link",
    "x-folio-scopes": [],
    requestParams: { path: Token },
    requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } } },
    responses: {
      "200": { description: "The asset, now ready", headers, content: { "application/json": { schema: { $ref: "#/components/schemas/Asset" } } } },
      "400": { $ref: "#/components/responses/BadRequest" },
      "402": { $ref: "#/components/responses/QuotaExceeded", description: "File storage is full: the file would pass the workspace's maxStorageBytes; nothing was stored (QUOTA_EXCEEDED)." },
      ...errors,
    },
  },

  "POST /v1/mcp": {
    operationId: "postMcp",
    summary: "The MCP server (Streamable HTTP, stateless)",
    description:
      "Model Context Protocol over Streamable HTTP: a JSON-RPC request in, its answer out (JSON, or a server-sent event stream). Tools: list_templates, get_template_data_schema, check_data, render, get_render, list_renders, preview, create_batch, get_batch; templates as resources (folio://templates/{id}). Takes the same API keys (x-api-key or Authorization: Bearer); each tool needs the scopes of the verb it calls. Host and Origin are checked; 1,200 requests per client address per minute. See docs/api.md, MCP server.",
    tags: ["MCP"],
    security: [{ ApiKey: [] }],
    "x-folio-auth": "apiKey",
    "x-folio-scopes": [],
    requestBody: { required: true, content: { "application/json": { schema: McpMessage } } },
    responses: {
      "200": { description: "The JSON-RPC answer", headers, content: { "application/json": { schema: McpMessage }, "text/event-stream": { schema: { type: "string" } } } },
      "202": { description: "A notification, accepted", headers },
      "401": { $ref: "#/components/responses/Unauthorized" },
      ...errors,
    },
  },
  "GET /v1/mcp": {
    operationId: "getMcp",
    summary: "MCP: no server-sent event stream (stateless server)",
    description: "The protocol's stream of server messages; this server keeps no session, so it answers 405 after the same checks as POST.",
    tags: ["MCP"],
    security: [{ ApiKey: [] }],
    "x-folio-auth": "apiKey",
    "x-folio-scopes": [],
    responses: { "405": { description: "Method not allowed: the server is stateless (a JSON-RPC error)", headers, content: { "application/json": { schema: McpMessage } } }, "401": { $ref: "#/components/responses/Unauthorized" }, ...errors },
  },
  "DELETE /v1/mcp": {
    operationId: "deleteMcp",
    summary: "MCP: no session to end (stateless server)",
    description: "The protocol's session end; this server keeps no session, so it answers 405 after the same checks as POST.",
    tags: ["MCP"],
    security: [{ ApiKey: [] }],
    "x-folio-auth": "apiKey",
    "x-folio-scopes": [],
    responses: { "405": { description: "Method not allowed: the server is stateless (a JSON-RPC error)", headers, content: { "application/json": { schema: McpMessage } } }, "401": { $ref: "#/components/responses/Unauthorized" }, ...errors },
  },
};
