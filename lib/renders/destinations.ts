import { recordAudit } from "../audit";
import { requireScope, type Ctx } from "../auth/context";
import { withTx } from "../db/client";
import * as repo from "../destinations/repository";
import { deletedMessage } from "../destinations/upload";
import { notFound } from "../errors";
import { endRender } from "./statements";

/**
 * Deletes a destination and its saved keys (objects in the bucket stay). Renders still queued for
 * it fail with destination_upload_failed in the same transaction (spec: States > Render); one
 * already rendering fails when it reaches its upload. why here and not in lib/destinations: it ends
 * renders, and lib/renders stands on lib/destinations (a render's destination and its upload).
 */
export async function deleteDestination(ctx: Ctx, id: string): Promise<{ deleted: true; ids: string[] }> {
  requireScope(ctx, "destination:manage");
  return withTx(async (tx) => {
    await repo.lockDestinations(tx, ctx.workspaceId);
    const row = await repo.findDestination(tx, ctx.workspaceId, id, { forUpdate: true });
    if (!row) throw notFound("storage destination", id);
    await repo.deleteDestination(tx, id);
    const queued = await repo.queuedRendersOf(tx, ctx.workspaceId, id);
    for (const renderId of queued) {
      await endRender(tx, { id: renderId, workspaceId: ctx.workspaceId }, ["queued"], {
        state: "failed",
        error: { code: "RENDER_FAILED", diagnostic: "destination_upload_failed", message: deletedMessage(row.name) },
      });
    }
    await recordAudit(tx, ctx, "storage_destination.delete", { type: "storage_destination", id }, { name: row.name, failedQueuedRenders: queued.length });
    return { deleted: true, ids: [id] };
  });
}
