import { actorRef, requireScope, type Ctx } from "../auth/context";
import { db, type Executor } from "../db/client";
import type { AuditEventRow } from "../db/schema";
import { decodeCursor, toPage, type Page, type PageQuery } from "../paging";
import * as repo from "./repository";

export type AuditEvent = {
  id: string;
  action: string;
  actor: { type: "user" | "apiKey" | "system"; id: string };
  targetType: string;
  targetId: string;
  createdAt: string;
  details: Record<string, unknown>;
};

/** Records who did what, in the caller's transaction so the record exists exactly when the change does. */
export function recordAudit(
  ex: Executor,
  ctx: Ctx,
  action: string,
  target: { type: string; id: string },
  details: Record<string, unknown> = {},
) {
  const actor = actorRef(ctx);
  return repo.insertAuditEvent(ex, {
    workspaceId: ctx.workspaceId,
    action,
    actorType: actor.type,
    actorId: actor.id,
    targetType: target.type,
    targetId: target.id,
    details,
  });
}

/** One page of the workspace's audit history, newest first (audit:read). */
export async function listAuditEvents(ctx: Ctx, query: PageQuery): Promise<Page<AuditEvent>> {
  requireScope(ctx, "audit:read");
  const rows = await repo.listAuditEvents(db(), ctx.workspaceId, query.limit, decodeCursor(query.cursor));
  return toPage(rows, query.limit, toPublic);
}

function toPublic(r: AuditEventRow): AuditEvent {
  return {
    id: r.id,
    action: r.action,
    actor: { type: r.actorType, id: r.actorId },
    targetType: r.targetType,
    targetId: r.targetId,
    createdAt: r.createdAt.toISOString(),
    details: r.details,
  };
}
