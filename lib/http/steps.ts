import type { Logger } from "pino";
import { config } from "../config";
import { log } from "../log";
import { addressBucket, clientAddress, type HeaderSource } from "./client-address";
import { toErrorResponse } from "./errors";
import { countRequest } from "./rate-limit";

/**
 * The steps every answer shares, whichever path serves the request: apiRoute, the handlers
 * lib/server/web.ts runs without Next.js (downloads, methods a path lacks), the catch-all of
 * unknown /v1 paths and the guard of next-auth's POSTs. One copy, so those paths cannot drift apart.
 */

/** A request being answered: its id, a logger carrying the id, and when it started. */
export type Exchange = { requestId: string; log: Logger; started: number };

/**
 * The request id of an answer: the caller's `x-request-id` when well formed, else a new
 * `req_<uuid>`. Every answer carries it, whichever path served the request.
 */
export function requestIdFrom(given: string | string[] | null | undefined): string {
  return typeof given === "string" && /^[\w.:-]{1,128}$/.test(given) ? given : `req_${crypto.randomUUID().replaceAll("-", "")}`;
}

/** The first step: the request's id and a logger for its lines. */
export function beginRequest(givenId: string | string[] | null | undefined): Exchange {
  const requestId = requestIdFrom(givenId);
  return { requestId, log: log().child({ requestId }), started: performance.now() };
}

/** The API's request rate per client address (spec: Limits > Request rates); throws 429 past it. */
export async function countApiRequest(headers: HeaderSource) {
  await countRequest(`api:${addressBucket(clientAddress(headers))}`, config().API_RATE_LIMIT_PER_MINUTE);
}

/** An error as the envelope, carrying the request id; anything unexpected is logged and answered INTERNAL. */
export function errorAnswer(x: Exchange, err: unknown): Response {
  return toErrorResponse(err, x.requestId, x.log);
}

/** The last step: one log line per request. */
export function logRequest(x: Exchange, method: string, path: string, status: number) {
  x.log.info({ method, path, status, durationMs: Math.round(performance.now() - x.started) }, "request");
}
