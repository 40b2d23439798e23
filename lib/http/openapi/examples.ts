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
  "GET /v1/instance": {
    responses: { 200: { name: "Folio", version: "0.1.0", deployment: "self-hosted", apiVersion: "v1", publicUrl: "https://folio.example.com" } },
  },
};
