import { AppError } from "../errors";
import { beginRequest, errorAnswer, logRequest } from "./steps";

/**
 * The answer to a method and path that name no endpoint (spec: Versioning 3: 404 to an unknown
 * endpoint): the 404 envelope naming both, whatever the body. The catch-all route answers unknown
 * paths with it; lib/server/web.ts answers a method that a known path lacks with it.
 */
export function unknownEndpointAnswer(method: string, path: string, givenId: string | string[] | null | undefined): Response {
  const x = beginRequest(givenId);
  const response = errorAnswer(x, new AppError("NOT_FOUND", `No endpoint ${method} ${path}`));
  logRequest(x, method, path, response.status);
  return response;
}
