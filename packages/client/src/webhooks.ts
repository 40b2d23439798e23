// Webhook verification as the Standard Webhooks specification defines it (the headers webhook-id,
// webhook-timestamp and webhook-signature; HMAC-SHA256 over "id.timestamp.body" with the secret
// after "whsec_", base64), with Web Crypto: no dependency, in Node and in browsers and workers alike.
import { FolioError } from "./errors.js";

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;
export type VerifyOptions = {
  /** How far the timestamp may be from now, in seconds; default 300 (replays are refused). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
};

const header = (h: WebhookHeaders, name: string): string | undefined => {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const v = (h as Record<string, string | string[] | undefined>)[name] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? v[0] : v;
};

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const toBase64 = (b: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(b)));

/**
 * Checks a webhook's signature against the endpoint's secret (`whsec_...`; during a rotation
 * give both, current first) and returns the parsed event. `body` must be the raw request body, as
 * received. Throws FolioError WEBHOOK_INVALID (status 400) when no signature matches, a header is
 * missing, or the timestamp is outside the tolerance.
 */
export async function verifyWebhook<T = unknown>(body: string, headers: WebhookHeaders, secret: string | string[], options: VerifyOptions = {}): Promise<T> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  const invalid = (why: string) => new FolioError("WEBHOOK_INVALID", `Webhook not verified: ${why}`, 400);
  if (!id || !timestamp || !signatures) throw invalid("the webhook-id, webhook-timestamp or webhook-signature header is missing");
  if (!/^\d+$/.test(timestamp)) throw invalid("webhook-timestamp is not a number of seconds");
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw invalid(`its timestamp is more than ${tolerance} s from now (a replay, or a clock far off)`);
  const given = signatures
    .split(" ")
    .map((s) => s.split(","))
    .filter(([version, sig]) => version === "v1" && sig)
    .map(([, sig]) => sig!);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    const key = await crypto.subtle.importKey("raw", fromBase64(s.startsWith("whsec_") ? s.slice(6) : s), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const expected = toBase64(await crypto.subtle.sign("HMAC", key, signed));
    if (given.some((g) => constantTimeEqual(g, expected))) return JSON.parse(body) as T;
  }
  throw invalid("no signature matches the secret");
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
