/** Where a render's files live in the service-file store, and how files no render needs are deleted. */
import type { Tx } from "../db/client";
import type { RenderRow } from "../db/schema";
import { enqueue } from "../jobs/boss";
import { extensions } from ".";

/**
 * The store key of one attempt's file. why the attempt: a stale attempt (its worker lost the lease)
 * never overwrites or deletes the file of the attempt that won.
 */
export function renderFileKey(r: Pick<RenderRow, "workspaceId" | "id" | "format">, attempt: number) {
  return `renders/${r.workspaceId}/${r.id}-${attempt}.${extensions[r.format]}`;
}

/** Every file a render may have left: one per attempt (a dead worker's attempt may have stored one), and the kept copy. */
export function filesOf(r: Pick<RenderRow, "workspaceId" | "id" | "format" | "attempts" | "fileKey">): string[] {
  const keys = new Set(Array.from({ length: r.attempts }, (_, i) => renderFileKey(r, i + 1)));
  if (r.fileKey) keys.add(r.fileKey);
  return [...keys];
}

/** Queues the deletion of files in the transaction that stops pointing at them (a crash cannot leave them behind). */
export async function deleteFilesLater(tx: Tx, keys: string[]) {
  if (keys.length) await enqueue(tx, "file-deletion", { keys });
}
