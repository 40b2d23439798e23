import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** spec: Webhook endpoint > secret: whsec_ then the base64 of 32 random bytes (Standard Webhooks' form). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The headers of one attempt (spec: Events > Request headers), signed for this attempt's time. */
export type SignedHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
  "content-type": "application/json";
  "user-agent": "service-webhooks/1";
};

/**
 * Standard Webhooks signatures of `body` for delivery `id` at `at`, one per active secret
 * (the current one first; after a rotation the previous one too, for 24 hours), space-separated.
 */
export function signDelivery(id: string, body: string, secrets: readonly string[], at: Date): SignedHeaders {
  // why whole seconds: the signed timestamp is the header's, which is Unix seconds.
  const seconds = Math.floor(at.getTime() / 1000);
  const signedAt = new Date(seconds * 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(id, signedAt, body)).join(" "),
    "content-type": "application/json",
    "user-agent": "service-webhooks/1",
  };
}

/** spec: Events > Delivery and retry rules: the wait after attempt n (1-based), each from the previous attempt. */
export const RETRY_DELAYS_MS = [30, 120, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800].map((s) => s * 1000);
/** The 11th attempt is the last. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When attempt `attempts + 1` is due after attempt number `attempts` failed at `at`; undefined after the last. */
export function nextAttemptAfter(attempts: number, at: Date): Date | undefined {
  const wait = RETRY_DELAYS_MS[attempts - 1];
  return wait === undefined ? undefined : new Date(at.getTime() + wait);
}
