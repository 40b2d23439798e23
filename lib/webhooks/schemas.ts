import { z } from "zod";
import { webhookDeliveryStatuses, webhookEventTypes, type WebhookDeliveryStatus, type WebhookEventType } from "../db/schema";
import { PageQuery, pageOf } from "../paging";

const Url = z.string().trim().min(1, "give the URL the events are sent to").max(2048, "must be at most 2,048 characters");
const Description = z.string().trim().max(500, "must be at most 500 characters");
const EventTypes = z
  .array(z.enum(webhookEventTypes))
  .min(1, "choose at least one event type")
  .max(webhookEventTypes.length)
  .refine((s) => new Set(s).size === s.length, "lists an event type twice");

export type { WebhookEventType, WebhookDeliveryStatus };

export const CreateEndpointInput = z.strictObject({
  url: Url,
  eventTypes: EventTypes,
  description: Description.optional(),
});
export type CreateEndpointInput = z.infer<typeof CreateEndpointInput>;

export const UpdateEndpointInput = z.strictObject({
  url: Url.optional(),
  eventTypes: EventTypes.optional(),
  description: Description.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEndpointInput = z.infer<typeof UpdateEndpointInput>;

export const DeliveryListQuery = PageQuery;
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;

/** spec: Webhook endpoint. */
export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().optional(),
    eventTypes: z.array(z.enum(webhookEventTypes)),
    enabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookEndpoint", description: "A webhook endpoint, never its signing secret." });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: z.string().meta({ description: "The signing secret (whsec_...): shown in this answer only" }) }).meta({
  id: "WebhookEndpointWithSecret",
});
export const WebhookEndpointList = z.object({ items: z.array(WebhookEndpoint) }).meta({ id: "WebhookEndpointList" });

/** spec: Webhook delivery record. */
export const WebhookDelivery = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.enum(webhookEventTypes),
    renderId: z.string(),
    status: z.enum(webhookDeliveryStatuses),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().optional(),
    lastError: z.string().optional(),
    lastAttemptAt: z.iso.datetime().optional(),
    nextAttemptAt: z.iso.datetime().optional(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookDelivery", description: "One event's delivery to an endpoint and its attempts." });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveryPage = pageOf(WebhookDelivery, "WebhookDeliveryPage");

/** What POST .../test answers: the outcome of one signed test event (not recorded). */
export const TestEventResult = z
  .object({
    delivered: z.boolean(),
    eventId: z.string(),
    webhookId: z.string(),
    statusCode: z.number().int().optional(),
    error: z.string().optional(),
    durationMs: z.number().int(),
  })
  .meta({ id: "WebhookTestResult", description: "The outcome of one signed webhook.test event (not recorded)." });
export type TestEventResult = z.infer<typeof TestEventResult>;
