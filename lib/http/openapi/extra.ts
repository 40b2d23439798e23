import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";

/**
 * The /v1 operations the web server answers without Next.js (lib/server/web.ts): signed download and
 * upload links. They have no route module for the generator to read, so they are described here;
 * the coverage test (lib/http/openapi/coverage.unit.test.ts) checks this list against web.ts's prefixes.
 */
const Token = z.object({ token: z.string().min(1).meta({ description: "The signed token of the link (the link is the whole credential)" }) });
const headers = { "x-request-id": { $ref: "#/components/headers/RequestId" } };
const errors = {
  "403": { $ref: "#/components/responses/Forbidden" },
  "404": { $ref: "#/components/responses/NotFound" },
  "429": { $ref: "#/components/responses/RateLimited" },
  "500": { $ref: "#/components/responses/Internal" },
  "503": { $ref: "#/components/responses/Unavailable" },
  default: { $ref: "#/components/responses/Error" },
};

export const extraOperations: Record<string, ZodOpenApiOperationObject> = {
  "GET /v1/storage/downloads/{token}": {
    operationId: "getStorageDownloadsByToken",
    summary: "Download a file by its signed link",
    description:
      "The downloadUrl of a render, an asset or a combined batch PDF: valid for five minutes, needs no other credential. An expired or altered link answers 403.",
    tags: ["Storage"],
    security: [],
    "x-folio-auth": "link",
    "x-folio-scopes": [],
    requestParams: { path: Token },
    responses: {
      "200": {
        description: "The file, with its content type and a Content-Disposition naming it",
        headers,
        content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
      },
      ...errors,
    },
  },
  "PUT /v1/storage/uploads/{token}": {
    operationId: "putStorageUploadsByToken",
    summary: "Upload an asset's bytes by its signed link",
    description:
      "The uploadUrl that POST /v1/assets answered, with its uploadHeaders; the bytes must match the registered size and sha256. Any origin may call it (CORS): the link is the whole credential.",
    tags: ["Storage"],
    security: [],
    "x-folio-auth": "link",
    "x-folio-scopes": [],
    requestParams: { path: Token },
    requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } } },
    responses: {
      "200": { description: "The asset, now ready", headers, content: { "application/json": { schema: { $ref: "#/components/schemas/Asset" } } } },
      "400": { $ref: "#/components/responses/BadRequest" },
      ...errors,
    },
  },
};
