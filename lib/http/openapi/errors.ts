import { z } from "zod";
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from "zod-openapi";
import type { RouteSpec } from "../api-route";
import { MiB } from "../body";
import { ErrorEnvelope } from "./schemas";

/**
 * The error answers of each operation, listed by status (spec: Errors), all in the `Error`
 * envelope. Most follow from what the route declares: a credential (401, 403), a path id (404), a
 * body (413 past its bodyLimit, 415 when not JSON), an Idempotency-Key (409), creating renders
 * (POST with render:create: 402), and waiting for the file (a render:create POST answering a file:
 * 422, 504). What a verb adds beyond that is in OPERATION_ERRORS. Anything else is `default`.
 */

/** Reasons an operation answers a status that its route's options do not show; `false` drops a status the rules give. */
type Reasons = { 402?: string | false; 404?: string; 409?: string; 422?: string };

export const OPERATION_ERRORS: Record<string, Reasons> = {
  "POST /v1/renders": { 404: "templateVersionId, or the preview's templateId, names nothing in this workspace (NOT_FOUND)." },
  "POST /v1/renders/batch": { 404: "An item's templateVersionId or preview templateId names nothing in this workspace; the message starts with Batch item N (NOT_FOUND)." },
  "POST /v1/renders/string": {
    // why: string rendering creates no render and uses no allowance (spec: Limits > Render allowances).
    402: false,
    422: "A sandbox step stopped twice while it ran (RENDER_FAILED).",
  },
  "POST /v1/reports/render": { 404: "No published template of that name renders the format asked for (NOT_FOUND)." },
  "POST /v1/renders/{id}/cancel": { 409: "The render already ended; only a queued or processing render can be cancelled (CONFLICT)." },
  "GET /v1/renders/{id}/file": { 409: "The render has no file: it is still queued or processing (retryable), or it failed or was cancelled (CONFLICT)." },
  "GET /v1/renders/batch/{id}/pdf": {
    409: "An item is still queued or processing (retryable), or one failed, was cancelled or kept no copy; the message names the first (CONFLICT).",
  },
  "POST /v1/templates": { 404: "folderId names no folder of this workspace (NOT_FOUND)." },
  "PATCH /v1/templates/{id}": { 404: "No such template, or folderId names no folder of this workspace (NOT_FOUND)." },
  "PUT /v1/templates/{id}/draft": {
    409: "expectedRevision is not the draft's revision: it was saved meanwhile; `current` says at which revision and who saved it. Reload and apply the change again (CONFLICT).",
  },
  "POST /v1/templates/{id}/versions": { 409: "expectedRevision is not the draft's revision: it was saved meanwhile; review it and publish again (CONFLICT)." },
  "POST /v1/templates/delete": { 404: "An id names no template of this workspace; none is deleted (NOT_FOUND)." },
  "POST /v1/assets": { 402: "File storage is full: the file would pass the workspace's maxStorageBytes (QUOTA_EXCEEDED)." },
  "DELETE /v1/assets/{id}": { 409: "A template or workspace file uses the asset; the details name each (CONFLICT)." },
  "POST /v1/storage-destinations": { 409: "The workspace has 10 storage destinations already, or one has that name (CONFLICT)." },
  "PATCH /v1/storage-destinations/{id}": { 409: "Another storage destination has that name (CONFLICT)." },
  "POST /v1/webhook-endpoints": { 409: "The workspace has 10 webhook endpoints already (CONFLICT)." },
  "POST /v1/api-keys/{id}/rotate": { 409: "The key is the deploy key, was rotated already, or is not active (CONFLICT)." },
  "DELETE /v1/api-keys/{id}": { 409: "The key is the deploy key, set by the server's DEPLOY_API_KEY (CONFLICT)." },
  "POST /v1/workspace-files": {
    404: "folderId names no folder of this workspace (NOT_FOUND).",
    409: "A file or folder in that folder has the name (names ignore letter case) (CONFLICT).",
  },
  "PATCH /v1/workspace-files/{id}": {
    404: "No such file, or folderId names no folder of this workspace (NOT_FOUND).",
    409: "A file or folder in that folder has the name (names ignore letter case) (CONFLICT).",
  },
  "PUT /v1/workspace-files/{id}/content": { 409: "expectedRevision is not the file's revision: it was saved meanwhile; `current` says which (CONFLICT)." },
  "DELETE /v1/workspace-files/{id}": { 409: "A template or stylesheet uses the file; the details name each (CONFLICT)." },
  "POST /v1/workspace-folders": {
    404: "parentId names no folder of this workspace (NOT_FOUND).",
    409: "A file or folder in that folder has the name (names ignore letter case) (CONFLICT).",
  },
  "PATCH /v1/workspace-folders/{id}": {
    404: "No such folder, or parentId names no folder of this workspace (NOT_FOUND).",
    409: "A file or folder in that folder has the name (names ignore letter case) (CONFLICT).",
  },
  "DELETE /v1/workspace-folders/{id}": { 409: "The folder is not empty, or its files are still in use; the details list them (CONFLICT)." },
};

const IDEMPOTENCY_CONFLICT = "The Idempotency-Key was used with a different request, or its first request is still being processed (retryable) (CONFLICT).";

const ref = (name: string, description?: string) => ({ $ref: `#/components/responses/${name}`, ...(description ? { description } : {}) });

const RequestIdHeader = { $ref: "#/components/headers/RequestId" };

/** An error answer in the envelope, with its own words. */
const errorResponse = (description: string, opts: { retryAfter?: boolean; example?: unknown } = {}): ZodOpenApiResponseObject => ({
  description,
  headers: { "x-request-id": RequestIdHeader, ...(opts.retryAfter ? { "retry-after": { $ref: "#/components/headers/RetryAfter" } } : {}) },
  content: { "application/json": { schema: ErrorEnvelope, ...(opts.example !== undefined ? { example: opts.example } : {}) } },
});

const envelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ error: { code, message, retryable: false, ...extra } });

/** components.responses: the shared error answers operations refer to. */
export const errorComponents: Record<string, ZodOpenApiResponseObject> = {
  BadRequest: errorResponse("The request is not valid: the details name each bad value (BAD_REQUEST and the other 400 codes)."),
  Unauthorized: errorResponse("No valid credential (UNAUTHORIZED)."),
  Forbidden: errorResponse("The credential lacks a scope, or the action needs another kind of credential (FORBIDDEN)."),
  NotFound: errorResponse("No such resource in this workspace (NOT_FOUND)."),
  Conflict: errorResponse("The request conflicts with the resource as it is now (CONFLICT); `retryable` says whether the same request may succeed later.", {
    example: envelope("CONFLICT", "The draft is at revision 5 (saved by Ada at 2026-11-27T04:09:00.000Z), not 4; reload it and apply your change again", {
      current: { draftRevision: 5, updatedAt: "2026-11-27T04:09:00.000Z" },
    }),
  }),
  PayloadTooLarge: errorResponse("The body is over the operation's limit (spec: Limits > Request bodies), refused before it is read (LIMIT_EXCEEDED, status 413).", {
    example: envelope("LIMIT_EXCEEDED", "The body is larger than this endpoint's limit of 1 MiB"),
  }),
  QuotaExceeded: errorResponse(
    "A monthly or daily allowance is used up: documents this month, test renders today, file storage, or the overage spend cap; nothing was created (QUOTA_EXCEEDED).",
    { example: envelope("QUOTA_EXCEEDED", "The workspace has used its 1,000 documents of this month; it renders again on the 1st (UTC)") },
  ),
  UnsupportedMediaType: errorResponse("The body was not sent as content-type: application/json (BAD_REQUEST, status 415).", {
    example: envelope("BAD_REQUEST", "The body must be sent as content-type: application/json"),
  }),
  RenderFailed: errorResponse("The render this request waited for failed or was cancelled; `renderId` names it (RENDER_FAILED).", {
    example: envelope("RENDER_FAILED", "Render rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U failed (customer.name: is missing from the data)", { renderId: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U" }),
  }),
  RenderTimeout: errorResponse("The file was not ready within 95 seconds; the render goes on: read it by `renderId`, or repeat the request with the same Idempotency-Key to wait again (RENDER_TIMEOUT, retryable).", {
    example: {
      error: {
        code: "RENDER_TIMEOUT",
        message: "Render rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U was not ready within 95 s; it continues: fetch it with GET /v1/renders/rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
        retryable: true,
        renderId: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
      },
    },
  }),
  RateLimited: errorResponse("Too many requests (RATE_LIMITED); retry after Retry-After seconds.", { retryAfter: true }),
  Internal: errorResponse("An unexpected failure (INTERNAL); quote the request id."),
  Unavailable: errorResponse("The database does not answer (INTERNAL, retryable); retry after Retry-After seconds.", { retryAfter: true }),
  Error: errorResponse("Any other error, in the same envelope (the code says which)."),
};

const formatBytes = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n.toLocaleString("en-US")} bytes`);

/**
 * The error answers of one operation: the rules above, then its entry in OPERATION_ERRORS. Each
 * refers to a shared answer; where the operation has its own reason or limit, the reference
 * carries it as its description (an OpenAPI 3.1 Reference Object's description replaces the
 * shared one's).
 */
export function errorResponses(method: string, path: string, spec: RouteSpec): ZodOpenApiResponsesObject {
  const reasons = OPERATION_ERRORS[`${method} ${path}`] ?? {};
  const createsRenders = method === "POST" && spec.scope === "render:create";
  const answersFile = Object.values(spec.responses ?? {}).some((r) => !(r instanceof z.ZodType));
  const out: ZodOpenApiResponsesObject = { "400": ref("BadRequest") };
  if (spec.auth !== "none") {
    out["401"] = ref("Unauthorized");
    out["403"] = ref("Forbidden");
  }
  if (reasons[402]) out["402"] = ref("QuotaExceeded", reasons[402]);
  else if (createsRenders && reasons[402] !== false) out["402"] = ref("QuotaExceeded");
  if (reasons[404] || path.includes("{")) out["404"] = ref("NotFound", reasons[404]);
  const conflicts = [spec.idempotency ? IDEMPOTENCY_CONFLICT : undefined, reasons[409]].filter(Boolean);
  if (conflicts.length) out["409"] = ref("Conflict", conflicts.join(" "));
  if (spec.body) {
    out["413"] = ref("PayloadTooLarge", `The body is over this operation's limit of ${formatBytes(spec.bodyLimit ?? MiB)}, refused before it is read (LIMIT_EXCEEDED).`);
    out["415"] = ref("UnsupportedMediaType");
  }
  if (reasons[422] || (createsRenders && answersFile)) out["422"] = ref("RenderFailed", reasons[422]);
  out["429"] = ref("RateLimited");
  out["500"] = ref("Internal");
  out["503"] = ref("Unavailable");
  if (createsRenders && answersFile) out["504"] = ref("RenderTimeout");
  out.default = ref("Error");
  return out;
}
