import { z } from "zod";

/** One entry per queue; web and worker both import it. Payloads carry IDs only. */
export const queues = {
  // Renders are not here: the renders table is their queue (docs/architecture.md, Render pipeline).
  /** Every minute: prunes rate-limit windows and expired idempotency records. */
  maintenance: { payload: z.object({}), options: () => ({ retryLimit: 0, expireInSeconds: 60 }), cron: "* * * * *" },
  /** Every hour: deletes ended renders older than RETENTION_DAYS, and queues the deletion of their files. */
  retention: { payload: z.object({}), options: () => ({ retryLimit: 1, expireInSeconds: 3600 }), cron: "17 * * * *" },
  /**
   * Files no render points at any more (of deleted renders, of attempts taken back from a dead
   * worker), queued in the transaction that let go of them, so no crash leaves them behind. The
   * store keys are the files' ids.
   */
  "file-deletion": { payload: z.object({ keys: z.array(z.string().min(1)).min(1) }), options: () => ({ retryLimit: 10, retryBackoff: true, expireInSeconds: 600 }) },
  /**
   * Files of asset blobs no asset and no published version uses any more, queued in the
   * transaction that deleted their rows. The handler deletes a file only while its blob still has
   * no row (lib/assets deleteBlobFiles): content uploaded again in between keeps its file.
   */
  "blob-deletion": {
    payload: z.object({ workspaceId: z.string().min(1), sha256s: z.array(z.string().regex(/^[0-9a-f]{64}$/)).min(1) }),
    options: () => ({ retryLimit: 10, retryBackoff: true, expireInSeconds: 600 }),
  },
  /**
   * One due attempt of a webhook delivery (lib/webhooks/dispatch.ts hands them over, grouped by
   * endpoint so one slow receiver holds at most a few workers). `attempts` is the count the
   * dispatcher saw: a job whose delivery was attempted since does nothing.
   */
  "webhook-delivery": {
    payload: z.object({ deliveryId: z.string().min(1), attempts: z.number().int().min(0) }),
    options: () => ({ retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 60 }),
  },
} as const;

export type QueueName = keyof typeof queues;
export type QueuePayload<Q extends QueueName> = z.infer<(typeof queues)[Q]["payload"]>;
