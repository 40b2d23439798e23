import type { QueuePayload } from "@/lib/jobs/catalog";
import { attemptDelivery } from "@/lib/webhooks/deliver";

/** One attempt of a webhook delivery; the outcome is recorded on the delivery, never thrown. */
export async function handleWebhookDelivery(job: QueuePayload<"webhook-delivery">) {
  await attemptDelivery(job.deliveryId, job.attempts);
}
