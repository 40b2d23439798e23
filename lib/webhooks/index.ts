import { recordAudit } from "../audit";
import { requireScope, type Ctx } from "../auth/context";
import { seal } from "../crypto";
import { db, withTx, type Executor } from "../db/client";
import { newId } from "../db/ids";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../db/schema";
import { AppError, conflict, notFound } from "../errors";
import { decodeCursor, toPage, type Page } from "../paging";
import { attemptDelivery, SECRET_PURPOSE, sendSigned, urlPolicy } from "./deliver";
import * as repo from "./repository";
import type { CreateEndpointInput, DeliveryListQuery, TestEventResult, UpdateEndpointInput, WebhookDelivery, WebhookEndpoint } from "./schemas";
import { newWebhookSecret } from "./sign";
import { auditedUrl, checkWebhookUrl, type Resolver } from "./urls";

export { CreateEndpointInput, DeliveryListQuery, UpdateEndpointInput, type TestEventResult, type WebhookDelivery, type WebhookEndpoint } from "./schemas";

/** spec: Webhook endpoint: at most 10 per workspace. */
export const MAX_ENDPOINTS = 10;
/** spec: Events > Signatures: after a rotation the previous secret keeps signing this long. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;
/** The type of the event POST .../test sends (documented in docs/api.md, Webhooks). */
export const TEST_EVENT_TYPE = "webhook.test";

const ACTION = "manage webhooks";

function toEndpoint(r: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    ...(r.description ? { description: r.description } : {}),
    eventTypes: r.eventTypes,
    enabled: r.enabled,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function toDelivery(r: WebhookDeliveryRow): WebhookDelivery {
  const d: WebhookDelivery = {
    id: r.id,
    eventId: r.eventId,
    eventType: r.eventType,
    renderId: r.renderId,
    status: r.status,
    attempts: r.attempts,
    createdAt: r.createdAt.toISOString(),
  };
  if (r.lastStatusCode !== null) d.lastStatusCode = r.lastStatusCode;
  if (r.lastError !== null) d.lastError = r.lastError;
  if (r.lastAttemptAt) d.lastAttemptAt = r.lastAttemptAt.toISOString();
  if (r.status === "pending" && r.nextAttemptAt) d.nextAttemptAt = r.nextAttemptAt.toISOString();
  return d;
}

/** BAD_REQUEST naming the reason when the URL is refused (spec: Events > Allowed webhook URLs). */
async function assertAllowedUrl(url: string, resolve?: Resolver) {
  const check = await checkWebhookUrl(url, urlPolicy(), resolve);
  if (!check.ok) {
    throw new AppError("BAD_REQUEST", `The webhook URL is not allowed: it ${check.reason}`, { details: [{ path: "url", message: check.reason }] });
  }
}

const sealSecret = (secret: string) => seal(SECRET_PURPOSE, Buffer.from(secret, "utf8"));

async function lockEndpoint(ex: Executor, ctx: Ctx, id: string) {
  const row = await repo.findEndpoint(ex, ctx.workspaceId, id, { forUpdate: true });
  if (!row) throw notFound("webhook endpoint", id);
  return row;
}

/** Creates an endpoint and returns its secret once; only the sealed secret is stored. */
export async function createEndpoint(ctx: Ctx, input: CreateEndpointInput, opts: { resolve?: Resolver } = {}): Promise<WebhookEndpoint & { secret: string }> {
  requireScope(ctx, "webhook:manage", ACTION);
  await assertAllowedUrl(input.url, opts.resolve);
  return withTx(async (tx) => {
    // why: two creates at once must not make eleven endpoints.
    await repo.lockWorkspaceEndpoints(tx, ctx.workspaceId);
    if ((await repo.countEndpoints(tx, ctx.workspaceId)) >= MAX_ENDPOINTS) {
      throw conflict(`A workspace can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
    }
    const secret = newWebhookSecret();
    const row = await repo.insertEndpoint(tx, {
      id: newId("whe"),
      workspaceId: ctx.workspaceId,
      url: input.url,
      description: input.description || null,
      eventTypes: input.eventTypes,
      secretSealed: sealSecret(secret),
    });
    await recordAudit(tx, ctx, "webhook_endpoint.create", { type: "webhook_endpoint", id: row.id }, { url: auditedUrl(row.url), eventTypes: row.eventTypes });
    return { ...toEndpoint(row), secret };
  });
}

/** All endpoints of the workspace, newest first, without secrets. */
export async function listEndpoints(ctx: Ctx): Promise<{ items: WebhookEndpoint[] }> {
  requireScope(ctx, "webhook:manage", ACTION);
  return { items: (await repo.listEndpoints(db(), ctx.workspaceId)).map(toEndpoint) };
}

export async function getEndpoint(ctx: Ctx, id: string): Promise<WebhookEndpoint> {
  requireScope(ctx, "webhook:manage", ACTION);
  const row = await repo.findEndpoint(db(), ctx.workspaceId, id);
  if (!row) throw notFound("webhook endpoint", id);
  return toEndpoint(row);
}

/** Changes only the fields given; description null removes it; a new URL is checked first. */
export async function updateEndpoint(ctx: Ctx, id: string, input: UpdateEndpointInput, opts: { resolve?: Resolver } = {}): Promise<WebhookEndpoint> {
  requireScope(ctx, "webhook:manage", ACTION);
  if (input.url !== undefined) await assertAllowedUrl(input.url, opts.resolve);
  return withTx(async (tx) => {
    const old = await lockEndpoint(tx, ctx, id);
    const set: Partial<WebhookEndpointRow> = {};
    if (input.url !== undefined) set.url = input.url;
    if (input.eventTypes !== undefined) set.eventTypes = input.eventTypes;
    if (input.description !== undefined) set.description = input.description || null;
    if (input.enabled !== undefined) set.enabled = input.enabled;
    if (Object.keys(set).length === 0) return toEndpoint(old);
    const row = await repo.updateEndpoint(tx, old.id, set);
    const details = { fields: Object.keys(set), ...(set.url === undefined ? {} : { url: auditedUrl(set.url) }) };
    await recordAudit(tx, ctx, "webhook_endpoint.update", { type: "webhook_endpoint", id: row.id }, details);
    return toEndpoint(row);
  });
}

/** Deletes an endpoint with its pending deliveries and delivery history. */
export async function deleteEndpoint(ctx: Ctx, id: string): Promise<{ deleted: true; ids: string[] }> {
  requireScope(ctx, "webhook:manage", ACTION);
  return withTx(async (tx) => {
    const row = await lockEndpoint(tx, ctx, id);
    await repo.deleteEndpoint(tx, row.id);
    await recordAudit(tx, ctx, "webhook_endpoint.delete", { type: "webhook_endpoint", id: row.id }, { url: auditedUrl(row.url) });
    return { deleted: true as const, ids: [row.id] };
  });
}

/**
 * Gives the endpoint a new secret, returned once. The one it replaces keeps signing (a second
 * signature) for 24 hours; a second rotation within them drops the oldest at once.
 */
export async function rotateSecret(ctx: Ctx, id: string, now = new Date()): Promise<WebhookEndpoint & { secret: string }> {
  requireScope(ctx, "webhook:manage", ACTION);
  return withTx(async (tx) => {
    const old = await lockEndpoint(tx, ctx, id);
    const secret = newWebhookSecret();
    const row = await repo.updateEndpoint(tx, old.id, {
      secretSealed: sealSecret(secret),
      previousSecretSealed: old.secretSealed,
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_MS),
    });
    await recordAudit(tx, ctx, "webhook_endpoint.rotate_secret", { type: "webhook_endpoint", id: row.id });
    return { ...toEndpoint(row), secret };
  });
}

/** One page of the endpoint's deliveries, newest first. */
export async function listDeliveries(ctx: Ctx, endpointId: string, query: DeliveryListQuery): Promise<Page<WebhookDelivery>> {
  requireScope(ctx, "webhook:manage", ACTION);
  const endpoint = await repo.findEndpoint(db(), ctx.workspaceId, endpointId);
  if (!endpoint) throw notFound("webhook endpoint", endpointId);
  const rows = await repo.listDeliveries(db(), endpoint.id, decodeCursor(query.cursor), query.limit);
  return toPage(rows, query.limit, toDelivery);
}

/**
 * Beyond the spec: sends a delivery again now, while the request waits (up to the 10-second
 * answer deadline): a new attempt with the same webhook-id and a fresh timestamp and signature.
 * Answers the delivery record after it. A pending delivery that fails keeps its retry schedule;
 * an ended one that fails is failed again.
 */
export async function redeliver(ctx: Ctx, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  requireScope(ctx, "webhook:manage", ACTION);
  const endpoint = await repo.findEndpoint(db(), ctx.workspaceId, endpointId);
  if (!endpoint) throw notFound("webhook endpoint", endpointId);
  const delivery = await repo.findDelivery(db(), endpoint.id, deliveryId);
  if (!delivery) throw notFound("webhook delivery", deliveryId);
  const after = await attemptDelivery(delivery.id, delivery.attempts, { redelivery: true });
  if (!after) throw notFound("webhook delivery", deliveryId);
  await recordAudit(db(), ctx, "webhook_delivery.redeliver", { type: "webhook_delivery", id: delivery.id }, { endpointId: endpoint.id });
  return toDelivery(after);
}

/**
 * Beyond the spec: sends one signed test event (type webhook.test) to the endpoint now and
 * answers the outcome. It is not a render and not counted; it leaves no delivery record. It is
 * sent even when the endpoint is disabled (so it can be checked before enabling it).
 */
export async function sendTestEvent(ctx: Ctx, endpointId: string, opts: { now?: Date } = {}): Promise<TestEventResult> {
  requireScope(ctx, "webhook:manage", ACTION);
  const endpoint = await repo.findEndpoint(db(), ctx.workspaceId, endpointId);
  if (!endpoint) throw notFound("webhook endpoint", endpointId);
  const now = opts.now ?? new Date();
  const eventId = newId("evt");
  const webhookId = newId("msg");
  const body = JSON.stringify({ id: eventId, type: TEST_EVENT_TYPE, createdAt: now.toISOString(), data: { endpointId: endpoint.id, test: true } });
  const started = performance.now();
  const outcome = await sendSigned(endpoint, webhookId, body, { now });
  const result: TestEventResult = { delivered: outcome.ok, eventId, webhookId, durationMs: Math.round(performance.now() - started) };
  if (outcome.statusCode !== undefined) result.statusCode = outcome.statusCode;
  if (outcome.error) result.error = outcome.error;
  return result;
}

