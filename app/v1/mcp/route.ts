import { serveMcp } from "@/lib/http/mcp";

// The MCP server (docs/api.md, MCP server). why GET and DELETE too: the protocol's session
// operations; stateless, the SDK answers them 405 after the same checks, as MCP clients expect.
export const POST = serveMcp;
export const GET = serveMcp;
export const DELETE = serveMcp;
