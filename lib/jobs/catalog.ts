import { z } from "zod";

/** One entry per queue; web and worker both import it. Payloads carry IDs only. */
export const queues = {
  // Renders are not here: the renders table is their queue (docs/architecture.md, Render pipeline).
  /** Every minute: prunes rate-limit windows and expired idempotency records. */
  maintenance: { payload: z.object({}), options: () => ({ retryLimit: 0, expireInSeconds: 60 }), cron: "* * * * *" },
  /** Every hour: deletes renders and files older than RETENTION_DAYS. */
  retention: { payload: z.object({}), options: () => ({ retryLimit: 1, expireInSeconds: 3600 }), cron: "17 * * * *" },
} as const;

export type QueueName = keyof typeof queues;
export type QueuePayload<Q extends QueueName> = z.infer<(typeof queues)[Q]["payload"]>;
