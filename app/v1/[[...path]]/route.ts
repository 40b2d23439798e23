import { refusalAnswer, unknownEndpoint } from "@/lib/http/refusals";

// Unknown /v1 paths answer the envelope, not an HTML page.
// why: no body or query parsing here, so any method and body get the same 404.
function unknown(req: Request) {
  const path = new URL(req.url).pathname;
  return refusalAnswer(unknownEndpoint(req.method, path), req.method, path, req.headers.get("x-request-id"));
}

export { unknown as GET, unknown as HEAD, unknown as OPTIONS, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
