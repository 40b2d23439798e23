import type { CallToolResult } from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import { ZodError } from "zod";
import type { Ctx } from "../auth/context";
import { isDatabaseUnavailable } from "../db/unavailable";
import { AppError, fromZodError } from "../errors";
import { log } from "../log";

/** A tool's answer: the value as structured content, and as JSON text for clients that read only text. */
export function toolResult(value: object, summary?: string): CallToolResult {
  const json = JSON.stringify(value, null, 2);
  return {
    content: [{ type: "text", text: summary ? `${summary}\n\n${json}` : json }],
    structuredContent: value as Record<string, unknown>,
  };
}

/** Any error as Folio's AppError; the unexpected is logged with the request id and answered INTERNAL without internals. */
export function asAppError(err: unknown, ctx: Ctx): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return fromZodError(err);
  const requestId = ctx.requestId ?? "";
  if (isDatabaseUnavailable(err)) {
    log().warn({ err, requestId }, "database unavailable");
    return new AppError("INTERNAL", `The service is briefly unavailable: its database does not answer. Retry in a few seconds; quote request id ${requestId} if it keeps happening`, { retryable: true });
  }
  log().error({ err, requestId }, "unexpected error in an MCP tool");
  return new AppError("INTERNAL", `Internal error; quote request id ${requestId} when reporting it`);
}

/**
 * A verb's refusal as a tool error result (isError), not a protocol error: the model reads the
 * code and message (with each detail's path) and can correct its call. The text starts with the
 * spec's error code; the error envelope's fields follow as JSON.
 */
export function toolError(err: unknown, ctx: Ctx): CallToolResult {
  const e = asAppError(err, ctx);
  const error: Record<string, unknown> = { code: e.code, message: e.message, retryable: e.retryable };
  if (e.details?.length) error.details = e.details;
  if (e.renderId) error.renderId = e.renderId;
  const retryAfter = e.headers?.["retry-after"];
  if (retryAfter) error.retryAfterSeconds = Number(retryAfter);
  const lines = (e.details ?? []).filter((d) => d.path).map((d) => `- ${d.path}: ${d.message}`);
  return {
    isError: true,
    content: [{ type: "text", text: [`${e.code}: ${e.message}`, ...lines, "", JSON.stringify({ error }, null, 2)].join("\n") }],
  };
}

/** A verb's refusal while reading a resource: resources have no error result, so it is a protocol error naming the code. */
export function resourceError(err: unknown, ctx: Ctx, uri: string): ProtocolError {
  const e = asAppError(err, ctx);
  if (e.code === "NOT_FOUND") return new ResourceNotFoundError(uri, `NOT_FOUND: ${e.message}`);
  const code = e.code === "INTERNAL" ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidRequest;
  return new ProtocolError(code, `${e.code}: ${e.message}`, { code: e.code, retryable: e.retryable });
}

/** Runs a tool's work; a refusal becomes the tool's error result, never a protocol crash. */
export const runTool =
  <A>(ctx: Ctx, work: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await work(args);
    } catch (err) {
      return toolError(err, ctx);
    }
  };
