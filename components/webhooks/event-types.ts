import type { WebhookEventType } from "@/lib/webhooks/schemas";

/** The event types an endpoint may subscribe to, with what each one means (spec: Events). */
export const eventTypeChoices: { type: WebhookEventType; hint: string }[] = [
  { type: "render.succeeded", hint: "The PDF is stored and can be downloaded." },
  { type: "render.failed", hint: "The render failed after any automatic retries." },
  { type: "render.cancelled", hint: "The render was cancelled before it finished." },
];
