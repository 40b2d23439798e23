import { unknownEndpointAnswer } from "@/lib/http/unknown-endpoint";

// Unknown /v1 paths answer the envelope, not an HTML page.
// why: no body or query parsing here, so any method and body get the same 404.
const unknown = (req: Request) => unknownEndpointAnswer(req.method, new URL(req.url).pathname, req.headers.get("x-request-id"));

export { unknown as GET, unknown as HEAD, unknown as OPTIONS, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
