import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { newId } from "../db/ids";
import { olderThan } from "../db/paging";
import { auditEvents, type AuditEventRow } from "../db/schema";
import type { Cursor } from "../paging";

export type NewAuditEvent = Omit<typeof auditEvents.$inferInsert, "id" | "createdAt">;

export async function insertAuditEvent(ex: Executor, event: NewAuditEvent) {
  await ex.insert(auditEvents).values({ id: newId("aud"), ...event });
}

export function listAuditEvents(ex: Executor, workspaceId: string, limit: number, cursor?: Cursor): Promise<AuditEventRow[]> {
  return ex
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.workspaceId, workspaceId), olderThan(auditEvents.createdAt, auditEvents.id, cursor)))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit + 1);
}
