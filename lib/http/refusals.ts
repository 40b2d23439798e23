import { AppError, badRequest } from "../errors";
import { beginRequest, errorAnswer, logRequest } from "./steps";

/**
 * The answer to a request refused before any route ran: the envelope and the log line. Such a
 * request names no endpoint, so it is not counted against the rate limit.
 */
export function refusalAnswer(err: AppError, method: string, path: string, givenId: string | string[] | null | undefined): Response {
  const x = beginRequest(givenId);
  const response = errorAnswer(x, err);
  logRequest(x, method, path, response.status);
  return response;
}

/** spec: Versioning 3: 404 to an unknown endpoint; an endpoint is a method and a path, whatever the body. */
export const unknownEndpoint = (method: string, path: string) => new AppError("NOT_FOUND", `No endpoint ${method} ${path}`);

/** True when the path's percent-encoding decodes to UTF-8; a path that does not names nothing. */
export function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const undecodablePath = (path: string) => badRequest(`The path ${path} is not valid percent-encoded UTF-8`);

/**
 * True when the path or query holds a NUL, raw or percent-encoded: no name, id or value of Folio's
 * holds one, and PostgreSQL refuses it in text (a 500 had it reached a query). Only `%00` decodes to
 * NUL: an overlong form (`%C0%80`) is not UTF-8, so the path refuses it and the query reads U+FFFD.
 */
export const hasNul = (url: string): boolean => url.includes("\0") || url.includes("%00");

export const nulInUrl = () => badRequest("The path or query holds a NUL character (%00); no path or value of Folio's contains one");
