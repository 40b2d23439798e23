/** The MCP server at /v1/mcp (docs/api.md, MCP server; its HTTP steps are lib/http/mcp.ts): tools and resources over Folio's verbs. */
export { buildServer, TEMPLATE_URI } from "./server";
