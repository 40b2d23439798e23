import type { Logger } from "pino";
import { ZodError } from "zod";
import { AppError, fromZodError, type ErrorDetail } from "../errors";

type Envelope = {
  error: { code: string; message: string; retryable: boolean; details?: ErrorDetail[]; renderId?: string; current?: Record<string, unknown> };
};

/**
 * The only place that builds the error envelope. Unknown errors are logged with the request id
 * and answered as INTERNAL without internals.
 */
export function toErrorResponse(err: unknown, requestId: string, logger: Logger): Response {
  let e: AppError;
  if (err instanceof AppError) e = err;
  else if (err instanceof ZodError) e = fromZodError(err);
  else {
    logger.error({ err, requestId }, "unexpected error");
    e = new AppError("INTERNAL", `Internal error; quote request id ${requestId} when reporting it`);
  }
  const body: Envelope = { error: { code: e.code, message: e.message, retryable: e.retryable } };
  if (e.details?.length) body.error.details = e.details;
  if (e.renderId) body.error.renderId = e.renderId;
  if (e.current) body.error.current = e.current;
  return Response.json(body, { status: e.status, headers: { ...e.headers, "x-request-id": requestId } });
}
