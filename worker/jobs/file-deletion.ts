import { fileStore } from "@/lib/files/store";
import type { QueuePayload } from "@/lib/jobs/catalog";

/** Deleting a file that is already gone succeeds, so a retried job does no harm. */
export async function handleFileDeletion({ keys }: QueuePayload<"file-deletion">) {
  await fileStore().delete(keys);
}
