import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { TEST_EVENT_TYPE } from "../../webhooks";

/**
 * The events Folio sends to webhook endpoints, as OpenAPI 3.1 `webhooks` (spec: Events): the body
 * lib/webhooks builds (eventBody, and sendTestEvent's test event) and the Standard Webhooks headers
 * lib/webhooks/sign.ts signs it with. why closed objects: like the answers, an event lists every
 * field it carries (and so reads the same as a request body and as an answer); receivers still
 * ignore fields they do not know, which a later Folio may add. why `examples` and not `example`:
 * validators read an object under an unknown keyword as a schema, and an event's `id` as its $id.
 */

const RENDER_ID = "rnd_01JQ7Z6X1V3N8K2M4P5R6S7T8U";
const EVENT_ID = "evt_01JQ7Z6X1V3N8K2M4P5R6S7T8U";

const EventId = z.string().meta({ description: "The event's id: the same for every endpoint that receives it and on every retry; receivers skip ids they have seen." });
const CreatedAt = z.iso.datetime().meta({ description: "When the render reached its final state." });
const RenderId = z.string().meta({ description: "The render; read it (GET /v1/renders/{id}) for its current state and download link." });
const Test = z.boolean().meta({ description: "Whether it was a test render (or a preview)." });

/** One render event: `type` render.<status>, `data.status` the same status. */
function renderEvent<S extends "succeeded" | "failed" | "cancelled">(status: S, words: string, extra: { errorCode?: z.ZodString } = {}) {
  const type = `render.${status}` as const;
  const id = `Render${status.charAt(0).toUpperCase()}${status.slice(1)}Event`;
  const data = { renderId: RENDER_ID, status, test: false, ...(extra.errorCode ? { errorCode: "RENDER_FAILED" } : {}) };
  return z
    .strictObject({
      id: EventId,
      type: z.literal(type),
      createdAt: CreatedAt,
      data: z.strictObject({ renderId: RenderId, status: z.literal(status), test: Test, ...extra }),
    })
    .meta({ id, description: words, examples: [{ id: EVENT_ID, type, createdAt: "2026-11-27T04:00:00.412Z", data }] });
}

export const RenderSucceededEvent = renderEvent("succeeded", "A PDF render succeeded: its file is stored (with a destination: it is in the bucket already). The event carries no file and no link.");
export const RenderFailedEvent = renderEvent("failed", "A PDF render failed after any automatic retries.", {
  errorCode: z.string().meta({ description: "The render's error code: ASSET_INVALID, UNSUPPORTED_FEATURE, LIMIT_EXCEEDED or RENDER_FAILED (its error.diagnostic says more)." }),
});
export const RenderCancelledEvent = renderEvent("cancelled", "A PDF render was cancelled before it finished.");

export const WebhookTestEvent = z
  .strictObject({
    id: EventId,
    type: z.literal(TEST_EVENT_TYPE),
    createdAt: z.iso.datetime().meta({ description: "When it was sent." }),
    data: z.strictObject({ endpointId: z.string().meta({ description: "The endpoint it was sent to." }), test: z.literal(true) }),
  })
  .meta({
    id: "WebhookTestEvent",
    description: "A test event, sent only by POST /v1/webhook-endpoints/{id}/test (even to a disabled endpoint): not a render, never retried, not recorded.",
    examples: [{ id: "evt_01JQ7ZC1D2E3F4G5H6J7K8M9N0", type: TEST_EVENT_TYPE, createdAt: "2026-11-27T04:00:00.000Z", data: { endpointId: "whe_01JQ7ZB1C2D3E4F5G6H7J8K9M0", test: true } }],
  });

/** Any event body, told apart by `type`: for receivers that parse every event with one type. */
export const WebhookEvent = z.discriminatedUnion("type", [RenderSucceededEvent, RenderFailedEvent, RenderCancelledEvent, WebhookTestEvent]).meta({
  id: "WebhookEvent",
  description: "Any event Folio sends to a webhook endpoint, by its type.",
});

/** spec: Events > Request headers; Standard Webhooks. */
const SignedHeaders = z.object({
  "webhook-id": z.string().meta({
    description: "The delivery's id (msg_...): the same on every retry of this delivery to this endpoint. Signed with the body.",
    example: "msg_2f1c7e9a4b5d4c3e8a7b6c5d4e3f2a1b",
  }),
  "webhook-timestamp": z
    .string()
    .regex(/^\d+$/)
    .meta({
      description: "This attempt's time, in Unix seconds; every retry is signed again with a fresh one. Refuse a timestamp more than five minutes from your clock.",
      example: "1795752000",
    }),
  "webhook-signature": z.string().meta({
    description:
      "Space-separated v1,<base64> signatures (Standard Webhooks: HMAC-SHA256 of `webhook-id.webhook-timestamp.body` with the endpoint's secret, whsec_...), one per active secret: for 24 hours after a rotation, the new and the old. Accept the event when one matches.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
  "user-agent": z.literal("service-webhooks/1").meta({ description: "Always service-webhooks/1." }),
});

const DELIVERY =
  "Sent as a signed POST (content-type: application/json) to each enabled endpoint subscribed to the type, for renders that end after the endpoint was created, usually within seconds. " +
  "The same event may arrive more than once and out of order: skip event ids you have seen and act on the render's current state. Verify the signature on the raw body before parsing it (docs/api.md, Webhooks).";

const RETRIES =
  "Any other status, no answer within 10 seconds, a refused connection or a redirect (never followed): the attempt failed. It is retried after 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h and 8 h; when the 11th attempt fails the delivery is marked failed.";

function webhook(operationId: string, summary: string, description: string, body: z.ZodType, retried = true): ZodOpenApiOperationObject {
  return {
    operationId,
    summary,
    description,
    tags: ["Webhook events"],
    // why none: Folio is the caller; the receiver checks webhook-signature, which no security scheme can express.
    security: [],
    requestParams: { header: SignedHeaders as never },
    requestBody: { required: true, content: { "application/json": { schema: body } } },
    responses: {
      "2XX": { description: "Received: any 2xx answer within 10 seconds; its body is ignored." },
      default: { description: retried ? RETRIES : "Any other answer: POST .../test reports it (statusCode, error); a test event is not retried." },
    },
  };
}

/** The document's `webhooks`: one per event type, keyed by the type. */
export const webhooks: ZodOpenApiPathsObject = {
  "render.succeeded": { post: webhook("renderSucceeded", "A render succeeded", DELIVERY, RenderSucceededEvent) },
  "render.failed": { post: webhook("renderFailed", "A render failed", DELIVERY, RenderFailedEvent) },
  "render.cancelled": { post: webhook("renderCancelled", "A render was cancelled", DELIVERY, RenderCancelledEvent) },
  [TEST_EVENT_TYPE]: {
    post: webhook(
      "webhookTest",
      "A test event",
      "Sent once, at once, by POST /v1/webhook-endpoints/{id}/test, signed like every event; that request answers the outcome.",
      WebhookTestEvent,
      false,
    ),
  },
};
