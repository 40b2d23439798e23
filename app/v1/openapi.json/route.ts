import { z } from "zod";
import { apiRoute } from "@/lib/http";
import { config } from "@/lib/config";
import { buildDocument, servedDocument } from "@/lib/http/openapi/document";

/**
 * The OpenAPI 3.1 document of /v1, generated from the route modules' own schemas (lib/http/openapi).
 * Built at the first request and kept for the process; the ETag lets clients revalidate cheaply.
 */
export const GET = apiRoute(
  {
    auth: "none",
    tag: "Instance",
    summary: "The OpenAPI document of this API",
    description: "This document: OpenAPI 3.1, generated from the schemas the handlers validate with. Answers 304 to an If-None-Match naming its ETag.",
    responses: { 200: z.record(z.string(), z.unknown()).meta({ id: "OpenApiDocument", description: "An OpenAPI 3.1 document" }) },
  },
  async ({ req }) => {
    const { routeModules } = await import("./routes");
    const doc = servedDocument(() => buildDocument([...routeModules, { path: "/v1/openapi.json", module: { GET } }], config().PUBLIC_URL));
    const headers = { etag: doc.etag, "cache-control": "public, max-age=300, must-revalidate" };
    if (req.headers.get("if-none-match")?.split(/\s*,\s*/).includes(doc.etag)) return new Response(null, { status: 304, headers });
    return new Response(doc.json, { status: 200, headers: { ...headers, "content-type": "application/json" } });
  },
);

