import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { Ctx } from "../auth/context";
import { config } from "../config";
import { AppError, isAppError, unauthorized } from "../errors";
import { authenticateKey } from "../keys";
import { log } from "../log";
import { buildServer } from "../mcp";
import { assertHostAndOrigin, keyOf } from "../mcp/guard";
import { hasBody, MiB, readJsonBody } from "./body";
import { addressBucket, clientAddress } from "./client-address";
import { countRequest } from "./rate-limit";
import { beginRequest, errorAnswer, logRequest } from "./steps";
import { runAsTenant } from "../processes/tenant";

/**
 * The largest body /v1/mcp reads: that of POST /v1/renders (11 MiB), since the render tool takes
 * the same caller HTML (docs/api.md, MCP server). Checked before reading, as every /v1 body limit.
 */
export const MCP_BODY_LIMIT = 11 * MiB;

// why on globalThis: Next.js may load this module more than once in a process (route bundles);
// the handler holds nothing per caller, but one is enough.
const key = Symbol.for("folio.mcpHandler");
const handler = (): McpHttpHandler =>
  ((globalThis as unknown as Record<symbol, McpHttpHandler>)[key] ??= createMcpHandler(
    // why the ctx rides in authInfo: the handler builds one server per request (stateless), and
    // authInfo is the SDK's pass-through from the HTTP layer to that request's factory call.
    ({ authInfo }) => buildServer(authInfo?.extra?.ctx as Ctx),
    { onerror: (err) => log().debug({ err }, "mcp request refused by the protocol layer"), maxRequestBodySize: MCP_BODY_LIMIT },
  ));

/**
 * /v1/mcp, every method: the checks every /v1 answer has, in the spec's error envelope, then the
 * SDK's Streamable HTTP handler, stateless (no session: any web node answers any request).
 * Steps: request id; Host and Origin (403, before anything is counted: a page on another site must
 * not spend a visitor's requests); the tool-protocol server's own request rate per client address
 * (429 with Retry-After; spec: Limits > Request rates); the API key (401), with a suspended
 * workspace refused (403); the body within its limit (413) and JSON; then the protocol.
 */
export async function serveMcp(req: Request): Promise<Response> {
  const x = beginRequest(req.headers.get("x-request-id"));
  const url = new URL(req.url);
  let response: Response;
  try {
    const cfg = config();
    assertHostAndOrigin(req.headers, cfg.PUBLIC_URL);
    await countRequest(`mcp:${addressBucket(clientAddress(req.headers))}`, cfg.MCP_RATE_LIMIT_PER_MINUTE);
    const secret = keyOf(req.headers);
    if (secret === null) throw unauthorized("A valid API key is required in the x-api-key header or as Authorization: Bearer <key>");
    const p = await authenticateKey(secret);
    const ctx: Ctx = { workspaceId: p.workspaceId, actor: { type: "apiKey", keyId: p.keyId, scopes: p.scopes }, requestId: x.requestId };
    const parsedBody = req.method === "POST" && hasBody(req) ? await readJsonBody(req, MCP_BODY_LIMIT) : undefined;
    // Contained jobs of the tools (sandbox steps, data checks) take the workspace's fair turns.
    response = await runAsTenant(ctx.workspaceId, () =>
      handler().fetch(req, {
        authInfo: { token: p.keyId, clientId: p.keyId, scopes: [...p.scopes], extra: { ctx } },
        ...(parsedBody === undefined ? {} : { parsedBody }),
      }),
    );
  } catch (err) {
    response = errorAnswer(x, withBearerChallenge(err));
  }
  try {
    response.headers.set("x-request-id", x.requestId);
  } catch {
    // why: a response whose headers are immutable keeps them; the id is in the log line anyway.
  }
  logRequest(x, req.method, url.pathname, response.status);
  return response;
}

/**
 * A 401 of /v1/mcp with a Bearer challenge that carries Folio's message (RFC 6750 section 3):
 * `Bearer realm="folio", error="invalid_token", error_description="..."`. why: an MCP host that
 * meets a 401 without WWW-Authenticate takes it for an OAuth-protected server and starts an
 * authorization flow (MCP authorization spec), whose failure it shows instead of the reason. The
 * challenge names no `resource_metadata`: Folio has no authorization server, keys are configured
 * by hand, so the host has nothing to discover and reports the error. `error` is sent for a
 * missing key too (RFC 6750 leaves it out there), so that every host shows the description.
 */
function withBearerChallenge(err: unknown): unknown {
  if (!isAppError(err) || err.code !== "UNAUTHORIZED") return err;
  // why: a quoted-string of the challenge takes printable ASCII without '"' and '\' (RFC 6750 section 3).
  const description = err.message.replace(/[^\x20-\x7e]|["\\]/g, "");
  return new AppError(err.code, err.message, {
    details: err.details,
    headers: { ...err.headers, "www-authenticate": `Bearer realm="folio", error="invalid_token", error_description="${description}"` },
  });
}
