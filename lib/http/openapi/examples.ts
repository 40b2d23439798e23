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
  "GET /v1/renders": {
    responses: {
      200: {
        items: [
          {
            id: "rnd_01JQ7Z9B2",
            state: "processing",
            test: false,
            source: "templateVersion",
            format: "pdf",
            templateId: "tpl_01JQ7YB0C8D9E0F1G2H3J4K5M6",
            templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1",
            batchId: "bat_01JQ7Z9A1B2C3D4E5F6G7H8J9K",
            batchIndex: 1,
            createdAt: "2026-11-27T04:00:00.000Z",
            updatedAt: "2026-11-27T04:00:00.180Z",
            startedAt: "2026-11-27T04:00:00.180Z",
          },
          {
            id: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
            state: "succeeded",
            test: false,
            source: "document",
            format: "pdf",
            createdAt: "2026-11-27T03:59:00.000Z",
            updatedAt: "2026-11-27T03:59:00.412Z",
            startedAt: "2026-11-27T03:59:00.031Z",
            finishedAt: "2026-11-27T03:59:00.412Z",
            result: { pageCount: 1, outputBytes: 18234, durationMs: 381, destination: { name: "invoices", key: "folio/2026/11/rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U.pdf" } },
          },
        ],
        nextCursor: "eyJjIjoiMjAyNi0xMS0yN1QwMzo1OTowMC4wMDBaIiwiaSI6InJuZF8wMUpRN1o2WDEifQ",
      },
    },
  },
  "GET /v1/renders/batch/{id}": {
    responses: {
      200: {
        id: "bat_01JQ7Z9A1B2C3D4E5F6G7H8J9K",
        createdAt: "2026-11-27T04:00:00.000Z",
        total: 2,
        counts: { queued: 0, processing: 1, succeeded: 1, failed: 0, cancelled: 0 },
        items: [
          { index: 0, id: "rnd_01JQ7Z9B1", state: "succeeded", templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1", test: false, createdAt: "2026-11-27T04:00:00.000Z", updatedAt: "2026-11-27T04:00:00.655Z" },
          { index: 1, id: "rnd_01JQ7Z9B2", state: "processing", templateVersionId: "tv_01JQ7YC2P3Q4R5S6T7V8W9X0Y1", test: false, createdAt: "2026-11-27T04:00:00.000Z", updatedAt: "2026-11-27T04:00:00.180Z" },
        ],
      },
    },
  },
  "POST /v1/templates": {
    request: {
      name: "Invoice",
      description: "The monthly invoice",
      kind: "component",
      content: {
        composition: {
          root: {
            type: "container",
            children: [
              { type: "text", text: { parts: ["Invoice ", { path: ["number"] }] }, style: { fontSize: 20, fontWeight: 700 } },
              { type: "text", text: { path: ["customer", "name"] } },
              {
                type: "table",
                source: { path: ["lines"] },
                columns: [
                  { id: "item", header: "Item", value: { path: ["description"] } },
                  { id: "amount", header: "Amount", value: { path: ["amount"], format: { type: "currency", currency: "EUR" } }, style: { textAlign: "right" } },
                ],
              },
            ],
          },
          footer: "Page {{pageNumber}} of {{totalPages}}",
        },
        settings: { locale: "de-DE" },
      },
    },
    responses: {
      201: {
        id: "tpl_01JQ7YB0C8D9E0F1G2H3J4K5M6",
        name: "Invoice",
        description: "The monthly invoice",
        kind: "component",
        draftRevision: 1,
        createdAt: "2026-11-27T04:00:00.000Z",
        updatedAt: "2026-11-27T04:00:00.000Z",
        draft: {
          composition: {
            root: {
              type: "container",
              children: [
                { type: "text", text: { parts: ["Invoice ", { path: ["number"] }] }, style: { fontSize: 20, fontWeight: 700 } },
                { type: "text", text: { path: ["customer", "name"] } },
                {
                  type: "table",
                  source: { path: ["lines"] },
                  columns: [
                    { id: "item", header: "Item", value: { path: ["description"] } },
                    { id: "amount", header: "Amount", value: { path: ["amount"], format: { type: "currency", currency: "EUR" } }, style: { textAlign: "right" } },
                  ],
                },
              ],
            },
            footer: "Page {{pageNumber}} of {{totalPages}}",
          },
          settings: { locale: "de-DE" },
        },
        lastEditedAt: "2026-11-27T04:00:00.000Z",
        lastEditedBy: { type: "apiKey", id: "key_01JQ7X0A1B2C3D4E5F6G7H8J9K", name: "CI" },
      },
    },
  },
  "PUT /v1/templates/{id}/draft": {
    request: {
      expectedRevision: 3,
      content: {
        templateHtml: "<h1>Invoice {{number}}</h1>\n<p>{{customer.name}}</p>\n{{> lines}}",
        partials: { lines: "<table>{{#each lines}}<tr><td>{{description}}</td><td>{{money amount}}</td></tr>{{/each}}</table>" },
        helpers: "function money(n) { return n.toFixed(2) + ' EUR'; }",
        footer: "Page {{pageNumber}} of {{totalPages}}",
        settings: { locale: "en-US", margins: { topMm: 20, bottomMm: 20 } },
        sampleData: [{ name: "Two lines", data: { number: "4711", customer: { name: "Ada" }, lines: [{ description: "Paper", amount: 12.5 }, { description: "Ink", amount: 30 }] } }],
      },
    },
    responses: {
      200: {
        templateId: "tpl_01JQ7YD4E5F6G7H8J9K0M1N2P3",
        draftRevision: 4,
        content: {
          templateHtml: "<h1>Invoice {{number}}</h1>\n<p>{{customer.name}}</p>\n{{> lines}}",
          partials: { lines: "<table>{{#each lines}}<tr><td>{{description}}</td><td>{{money amount}}</td></tr>{{/each}}</table>" },
          helpers: "function money(n) { return n.toFixed(2) + ' EUR'; }",
          footer: "Page {{pageNumber}} of {{totalPages}}",
          settings: { locale: "en-US", margins: { topMm: 20, bottomMm: 20 } },
          sampleData: [{ name: "Two lines", data: { number: "4711", customer: { name: "Ada" }, lines: [{ description: "Paper", amount: 12.5 }, { description: "Ink", amount: 30 }] } }],
        },
        updatedAt: "2026-11-27T04:10:00.000Z",
      },
    },
  },
  "POST /v1/templates/{id}/versions": {
    request: { expectedRevision: 4 },
    responses: {
      201: {
        id: "tv_01JQ7YE5F6G7H8J9K0M1N2P3Q4",
        templateId: "tpl_01JQ7YD4E5F6G7H8J9K0M1N2P3",
        version: 2,
        revision: 4,
        name: "Invoice (Handlebars)",
        kind: "handlebars",
        contentOnly: false,
        createdAt: "2026-11-27T04:11:00.000Z",
      },
    },
  },
  "POST /v1/templates/{id}/preview": {
    request: { data: { number: "4711", customer: { name: "Ada" }, lines: [{ description: "Paper", amount: 12.5 }] }, locale: "de-DE", format: "png", image: { page: 1, scale: 2 } },
  },
  "POST /v1/reports/render": {
    request: { format: "pdf", template: { name: "Invoice" }, data: { number: "4711", customer: { name: "Ada" }, lines: [{ description: "Paper", amount: 12.5 }] }, locale: "de-DE" },
  },
  "GET /v1/webhook-endpoints": {
    responses: {
      200: {
        items: [
          {
            id: "whe_01JQ7ZB1C2D3E4F5G6H7J8K9M0",
            url: "https://example.com/folio-events",
            description: "Billing",
            eventTypes: ["render.succeeded", "render.failed"],
            enabled: true,
            createdAt: "2026-11-27T04:00:00.000Z",
            updatedAt: "2026-11-27T04:00:00.000Z",
          },
        ],
      },
    },
  },
  "PATCH /v1/webhook-endpoints/{id}": {
    request: { eventTypes: ["render.succeeded", "render.failed", "render.cancelled"], description: null, enabled: false },
    responses: {
      200: {
        id: "whe_01JQ7ZB1C2D3E4F5G6H7J8K9M0",
        url: "https://example.com/folio-events",
        eventTypes: ["render.succeeded", "render.failed", "render.cancelled"],
        enabled: false,
        createdAt: "2026-11-27T04:00:00.000Z",
        updatedAt: "2026-11-27T05:00:00.000Z",
      },
    },
  },
  "POST /v1/webhook-endpoints/{id}/test": {
    responses: { 200: { delivered: false, eventId: "evt_01JQ7ZC1D2E3F4G5H6J7K8M9N0", webhookId: "msg_01JQ7ZC1D2E3F4G5H6J7K8M9N1", statusCode: 500, error: "The endpoint answered HTTP 500", durationMs: 212 } },
  },
  "GET /v1/webhook-endpoints/{id}/deliveries": {
    responses: {
      200: {
        items: [
          {
            id: "msg_2f1c7e9a4b5d4c3e8a7b6c5d4e3f2a1b",
            eventId: "evt_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
            eventType: "render.succeeded",
            renderId: "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U",
            status: "pending",
            attempts: 2,
            lastStatusCode: 503,
            lastError: "The endpoint answered HTTP 503",
            lastAttemptAt: "2026-11-27T04:00:31.000Z",
            nextAttemptAt: "2026-11-27T04:02:31.000Z",
            createdAt: "2026-11-27T04:00:00.412Z",
          },
        ],
      },
    },
  },
  "GET /v1/api-keys": {
    responses: {
      200: {
        items: [
          {
            id: "key_01JQ7X0A1B2C3D4E5F6G7H8J9K",
            name: "CI",
            scopes: ["render:create", "render:read"],
            prefix: "folio_w8",
            createdAt: "2026-11-01T09:00:00.000Z",
            expiresAt: "2027-11-01T09:00:00.000Z",
            lastUsedAt: "2026-11-27T04:00:00.000Z",
            status: "active",
            setByServer: false,
          },
        ],
      },
    },
  },
  "POST /v1/api-keys": {
    request: { name: "CI", scopes: ["render:create", "render:read"], expiresInDays: 365 },
    responses: {
      201: {
        id: "key_01JQ7X0A1B2C3D4E5F6G7H8J9K",
        name: "CI",
        scopes: ["render:create", "render:read"],
        prefix: "folio_w8",
        createdAt: "2026-11-01T09:00:00.000Z",
        expiresAt: "2027-11-01T09:00:00.000Z",
        status: "active",
        setByServer: false,
        secret: "folio_w8alKnPxWSAyKd3uDYpJxV3UqUq3vRTe7Z0MmEC8",
      },
    },
  },
  "GET /v1/instance": {
    responses: { 200: { name: "Folio", version: "0.1.0", deployment: "self-hosted", apiVersion: "v1", publicUrl: "https://folio.example.com" } },
  },
};
