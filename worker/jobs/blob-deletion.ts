import { deleteBlobFiles } from "@/lib/assets";
import { fileStore } from "@/lib/files/store";
import type { QueuePayload } from "@/lib/jobs/catalog";

/** Deleting a file that is already gone succeeds, so a retried job does no harm. */
export async function handleBlobDeletion({ workspaceId, sha256s }: QueuePayload<"blob-deletion">) {
  await deleteBlobFiles(workspaceId, sha256s, (keys) => fileStore().delete(keys));
}
