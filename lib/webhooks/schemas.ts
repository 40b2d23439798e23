import { z } from "zod";
import { webhookEventTypes, type WebhookDeliveryStatus, type WebhookEventType } from "../db/schema";
import { PageQuery } from "../paging";

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
export type WebhookEndpoint = {
  id: string;
  url: string;
  description?: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
};

/** spec: Webhook delivery record. */
export type WebhookDelivery = {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  renderId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  lastAttemptAt?: string;
  nextAttemptAt?: string;
  createdAt: string;
};

/** What POST .../test answers: the outcome of one signed test event (not recorded). */
export type TestEventResult = {
  delivered: boolean;
  eventId: string;
  webhookId: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
};
