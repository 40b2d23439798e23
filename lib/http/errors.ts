import type { Logger } from "pino";
import { ZodError } from "zod";
import { isDatabaseUnavailable } from "../db/unavailable";
import { AppError, fromZodError, type ErrorDetail } from "../errors";

/** Seconds a client is asked to wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The answer while the database cannot be reached: INTERNAL (the spec's code for a server-side
 * failure; clients branch on codes, and the spec has no other), but 503, retryable, with
 * Retry-After, since the same request may succeed in seconds (docs/api.md, Database outages).
 */
export const databaseUnavailable = (requestId: string) =>
  new AppError("INTERNAL", `The service is briefly unavailable: its database does not answer. Retry in a few seconds; quote request id ${requestId} if it keeps happening`, {
    status: 503,
    retryable: true,
    headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });

type Envelope = {
  error: { code: string; message: string; retryable: boolean; details?: ErrorDetail[]; renderId?: string; current?: Record<string, unknown> };
};

/**
 * The only place that builds the error envelope. Unknown errors are logged with the request id
 * and answered as INTERNAL without internals; a database outage answers 503 and asks for a retry.
 */
export function toErrorResponse(err: unknown, requestId: string, logger: Logger): Response {
  let e: AppError;
  if (err instanceof AppError) e = err;
  else if (err instanceof ZodError) e = fromZodError(err);
  else if (isDatabaseUnavailable(err)) {
    logger.warn({ err, requestId }, "database unavailable");
    e = databaseUnavailable(requestId);
  } else {
    logger.error({ err, requestId }, "unexpected error");
    e = new AppError("INTERNAL", `Internal error; quote request id ${requestId} when reporting it`);
  }
  const body: Envelope = { error: { code: e.code, message: e.message, retryable: e.retryable } };
  if (e.details?.length) body.error.details = e.details;
  if (e.renderId) body.error.renderId = e.renderId;
  if (e.current) body.error.current = e.current;
  return Response.json(body, { status: e.status, headers: { ...e.headers, "x-request-id": requestId } });
}
