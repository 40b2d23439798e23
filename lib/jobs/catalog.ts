import { z } from "zod";

/** One entry per queue; web and worker both import it. Payloads carry IDs only. */
export const queues = {
  /** Every minute: prunes rate-limit windows and expired idempotency records. */
  maintenance: { payload: z.object({}), options: { retryLimit: 0, expireInSeconds: 60 }, cron: "* * * * *" },
} as const;

export type QueueName = keyof typeof queues;
export type QueuePayload<Q extends QueueName> = z.infer<(typeof queues)[Q]["payload"]>;
