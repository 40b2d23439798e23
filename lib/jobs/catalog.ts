import { z } from "zod";
import { config } from "../config";

/** One entry per queue; web and worker both import it. Payloads carry IDs only. */
export const queues = {
  /** One render; the handler reads the row again and claims it with a conditional update. */
  render: {
    payload: z.object({ renderId: z.string() }),
    // why: pg-boss retries only cover a handler that threw (a database blip); crashed workers are
    // found by their expired render lease (lib/renders/processing.ts), which is much faster.
    options: () => ({ retryLimit: 2, retryDelay: 1, expireInSeconds: Math.ceil(config().RENDER_TIMEOUT_MS / 1000) + 120 }),
  },
  /** Every minute: prunes rate-limit windows and expired idempotency records. */
  maintenance: { payload: z.object({}), options: () => ({ retryLimit: 0, expireInSeconds: 60 }), cron: "* * * * *" },
  /** Every hour: deletes renders and files older than RETENTION_DAYS. */
  retention: { payload: z.object({}), options: () => ({ retryLimit: 1, expireInSeconds: 3600 }), cron: "17 * * * *" },
} as const;

export type QueueName = keyof typeof queues;
export type QueuePayload<Q extends QueueName> = z.infer<(typeof queues)[Q]["payload"]>;
