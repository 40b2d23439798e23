import { AppError } from "@/lib/errors";
import { toErrorResponse } from "@/lib/http/errors";
import { requestIdFrom } from "@/lib/http/request-id";
import { log } from "@/lib/log";

// Unknown /v1 paths answer the envelope, not an HTML page (spec: Versioning 3: 404 to an unknown endpoint).
// why: no body or query parsing here, so any method and body get the same 404.
function unknown(req: Request) {
  const requestId = requestIdFrom(req.headers.get("x-request-id"));
  const error = new AppError("NOT_FOUND", `No endpoint ${req.method} ${new URL(req.url).pathname}`);
  return toErrorResponse(error, requestId, log().child({ requestId }));
}

export { unknown as GET, unknown as HEAD, unknown as OPTIONS, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
