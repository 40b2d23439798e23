import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, boolean } from "drizzle-orm/pg-core";
import { timestamps, ts } from "./columns";
import { workspaces } from "./workspaces";

export const webhookEventTypes = ["render.succeeded", "render.failed", "render.cancelled"] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * A webhook endpoint (spec: Webhook endpoint). Secrets are sealed; after a rotation the previous
 * secret keeps signing (a second signature) until `previousSecretExpiresAt` (24 hours).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    eventTypes: jsonb("event_types").$type<WebhookEventType[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    secretSealed: text("secret_sealed").notNull(),
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    ...timestamps,
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId)],
);

export const webhookDeliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** One event to one endpoint (spec: Webhook delivery record); its id is the webhook-id header. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    endpointId: text("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type", { enum: webhookEventTypes }).notNull(),
    renderId: text("render_id").notNull(),
    /** The event body, fixed when the render ended (spec: Events > Body). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: webhookDeliveryStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: ts("last_attempt_at"),
    nextAttemptAt: ts("next_attempt_at"),
    /**
     * Set while a due attempt is handed to the worker's pg-boss queue: the dispatcher does not hand
     * it over again until then (a job lost with its worker is handed over again afterwards).
     */
    dispatchedUntil: ts("dispatched_until"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    index("webhook_deliveries_created_idx").on(t.createdAt),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
