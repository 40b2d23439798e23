/**
 * The worker's side of a render destination: the rendered file uploaded to the key fixed at the
 * render's creation, with the destination's credentials as they are now (spec: States > Render:
 * changes of keys, bucket and similar apply to renders still queued).
 */
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { db } from "../db/client";
import type { RenderRow } from "../db/schema";
import { RenderAborted } from "../render-engine/errors";
import { classifyS3Error } from "./classify";
import * as repo from "./repository";
import { connectionOf, endpointRefusal, s3Client, type Connection } from "./s3";

export const deletedMessage = (name: string) => `The storage destination ${name} was deleted before the render could upload to it`;

/**
 * An upload that failed. `transient` ones (timeouts, dropped connections, throttling, 5xx) are
 * retried with the render's retries; the others fail the render at once. Either way a render that
 * ends on it fails with RENDER_FAILED / destination_upload_failed and this message.
 */
export class DestinationUploadFailed extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = "DestinationUploadFailed";
  }
}

type Cached = { version: string; client: S3Client; connection: Connection };
/** One client per destination, kept while the destination is unchanged, so uploads reuse their connections. */
const clients = new Map<string, Cached>();
const MAX_CLIENTS = 100;

function clientFor(row: repo.StorageDestinationRow): Cached | undefined {
  const version = `${row.updatedAt.getTime()}:${row.secretAccessKeySealed}`;
  const cached = clients.get(row.id);
  if (cached?.version === version) return cached;
  cached?.client.destroy();
  clients.delete(row.id);
  const connection = connectionOf(row);
  if (!connection) return undefined;
  if (clients.size >= MAX_CLIENTS) {
    const [oldest] = clients.keys();
    clients.get(oldest!)?.client.destroy();
    clients.delete(oldest!);
  }
  const entry = { version, connection, client: s3Client(connection, { connectionMs: 5_000, requestMs: 30_000 }) };
  clients.set(row.id, entry);
  return entry;
}

type WithDestination = Pick<RenderRow, "workspaceId" | "destinationId" | "destinationName" | "destinationKey">;

/**
 * Uploads a render's file to its destination; throws DestinationUploadFailed naming the cause, or
 * RenderAborted when the render's signal (time limit, cancel) stopped the upload.
 */
export async function uploadRenderOutput(r: WithDestination, body: Uint8Array, contentType: string, signal: AbortSignal): Promise<void> {
  const name = r.destinationName ?? r.destinationId!;
  const failed = (cause: string, transient = false) => new DestinationUploadFailed(`Upload to the storage destination ${name} failed: ${cause}`, transient);
  const row = await repo.findDestination(db(), r.workspaceId, r.destinationId!);
  if (!row) throw new DestinationUploadFailed(deletedMessage(name), false);
  const refusal = endpointRefusal(row.endpoint);
  if (refusal) throw failed(refusal);
  const c = clientFor(row);
  if (!c) throw failed("its saved secret cannot be decrypted (was SECRET_KEY changed?); save the secret access key again");
  try {
    await c.client.send(
      new PutObjectCommand({ Bucket: row.bucket, Key: r.destinationKey!, Body: body, ContentType: contentType, ContentLength: body.byteLength }),
      { abortSignal: signal },
    );
  } catch (e) {
    if (signal.aborted) throw new RenderAborted(signal.reason === "cancelled" ? "cancelled" : "timeout");
    const k = classifyS3Error(e, c.connection);
    throw failed(`${k.message}; object key ${r.destinationKey} in the bucket ${row.bucket}`, k.transient);
  }
}
