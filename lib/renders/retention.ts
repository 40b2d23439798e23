import { config } from "../config";
import { db, withTx } from "../db/client";
import { deleteFilesLater, filesOf } from "./files";
import * as repo from "./repository";

const RETENTION_BATCH = 500;

/**
 * spec: Retention: renders, their files and records older than RETENTION_DAYS are deleted. Only
 * ended renders: a queued or processing one is still work in hand, whatever its age.
 *
 * why rows before files: a render row must never point at a missing file (GET would show a
 * download link that answers 404, and the render would look kept). Each batch's rows are deleted in
 * the transaction that queues the deletion of their files, so a crash leaves either both (the next
 * run starts over) or a queued job that deletes the files: never a row without its file, and never
 * a file nobody will delete.
 */
export async function purgeExpiredRenders(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - config().RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await withTx(async (tx) => {
      const rows = await repo.deleteExpiredRenders(tx, cutoff, RETENTION_BATCH);
      await deleteFilesLater(tx, rows.flatMap(filesOf));
      return rows.length;
    });
    total += deleted;
    if (deleted < RETENTION_BATCH) break;
  }
  // A batch whose items are all gone leaves with them (spec: Batch summary: items deleted by retention leave the batch).
  await repo.deleteEmptyBatches(db(), cutoff);
  return total;
}
