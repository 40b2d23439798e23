/**
 * Real requests and answers of the main operations, shown in the document (and in the console's
 * reference). Keyed by "METHOD /path" as the document names the path.
 */
export const examples: Record<string, { request?: unknown; responses?: Record<number, unknown> }> = {
  "POST /v1/renders": {
    request: { document: { html: "<h1>Invoice 4711</h1><p>Total: 120.00 EUR</p>", settings: { pageSize: { widthMm: 210, heightMm: 297 } } }, format: "pdf", waitMs: 10000 },
    responses: {
      200: {
        id: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
        state: "succeeded",
        test: false,
        source: "document",
        format: "pdf",
        createdAt: "2026-11-27T04:00:00.000Z",
        updatedAt: "2026-11-27T04:00:00.412Z",
        startedAt: "2026-11-27T04:00:00.031Z",
        finishedAt: "2026-11-27T04:00:00.412Z",
        result: {
          downloadUrl: "https://folio.example.com/v1/storage/downloads/eyJrIjoi...",
          expiresAt: "2026-11-27T04:05:00.412Z",
          pageCount: 1,
          outputBytes: 18234,
          durationMs: 381,
        },
      },
      202: {
        id: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
        state: "queued",
        test: false,
        source: "document",
        format: "pdf",
        createdAt: "2026-11-27T04:00:00.000Z",
        updatedAt: "2026-11-27T04:00:00.000Z",
      },
    },
  },
  "GET /v1/renders/{id}": {
    responses: {
      200: {
        id: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
        state: "failed",
        test: false,
        source: "templateVersion",
        format: "pdf",
        templateId: "tpl_01JQ7YB0C8D9E0F1G2H3J4K5M6",
        templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1",
        createdAt: "2026-11-27T04:00:00.000Z",
        updatedAt: "2026-11-27T04:00:01.020Z",
        startedAt: "2026-11-27T04:00:00.030Z",
        finishedAt: "2026-11-27T04:00:01.020Z",
        error: { code: "RENDER_FAILED", diagnostic: "template_error", message: "customer.name: is missing from the data" },
      },
    },
  },
  "POST /v1/renders/batch": {
    request: {
      items: [
        { templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1", data: { customer: { name: "Ada" } } },
        { templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1", data: { customer: { name: "Grace" } } },
      ],
    },
    responses: {
      202: {
        id: "bat_01JQ7Z9A1B2C3D4E5F6G7H8J9K",
        createdAt: "2026-11-27T04:00:00.000Z",
        total: 2,
        counts: { queued: 2, processing: 0, succeeded: 0, failed: 0, cancelled: 0 },
        items: [
          { index: 0, id: "rnd_01JQ7Z9B1", state: "queued", templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1", test: false, createdAt: "2026-11-27T04:00:00.000Z", updatedAt: "2026-11-27T04:00:00.000Z" },
          { index: 1, id: "rnd_01JQ7Z9B2", state: "queued", templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1", test: false, createdAt: "2026-11-27T04:00:00.000Z", updatedAt: "2026-11-27T04:00:00.000Z" },
        ],
      },
    },
  },
  "POST /v1/assets": {
    request: { kind: "image", filename: "logo.png", mediaType: "image/png", size: 48213, sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" },
    responses: {
      201: {
        id: "ast_01JQ7ZA1B2C3D4E5F6G7H8J9K0",
        kind: "image",
        filename: "logo.png",
        mediaType: "image/png",
        size: 48213,
        sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        state: "pending",
        createdAt: "2026-11-27T04:00:00.000Z",
        uploadUrl: "https://folio.example.com/v1/storage/uploads/eyJhIjoi...",
        uploadHeaders: { "content-type": "image/png", "x-folio-sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" },
        uploadExpiresAt: "2026-11-27T04:15:00.000Z",
      },
    },
  },
  "POST /v1/webhook-endpoints": {
    request: { url: "https://example.com/folio-events", eventTypes: ["render.succeeded", "render.failed"], description: "Billing" },
    responses: {
      201: {
        id: "whe_01JQ7ZB1C2D3E4F5G6H7J8K9M0",
        url: "https://example.com/folio-events",
        description: "Billing",
        eventTypes: ["render.succeeded", "render.failed"],
        enabled: true,
        createdAt: "2026-11-27T04:00:00.000Z",
        updatedAt: "2026-11-27T04:00:00.000Z",
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      },
    },
  },
  "GET /v1/instance": {
    responses: { 200: { name: "Folio", version: "0.1.0", deployment: "self-hosted", apiVersion: "v1", publicUrl: "https://folio.example.com" } },
  },
};
