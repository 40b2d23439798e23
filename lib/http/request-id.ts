/**
 * The request id of an answer: the caller's `x-request-id` when well formed, else a new
 * `req_<uuid>`. Every answer carries it, whichever path served the request.
 */
export function requestIdFrom(given: string | string[] | null | undefined): string {
  return typeof given === "string" && /^[\w.:-]{1,128}$/.test(given) ? given : `req_${crypto.randomUUID().replaceAll("-", "")}`;
}
