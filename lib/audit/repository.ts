import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { newId } from "../db/ids";
import { olderThan } from "../db/paging";
import { apiKeys, auditEvents, users, type AuditEventRow } from "../db/schema";
import type { Cursor } from "../paging";

export type NewAuditEvent = Omit<typeof auditEvents.$inferInsert, "id" | "createdAt">;
export type AuditFilter = { actorId?: string; action?: string };

export async function insertAuditEvent(ex: Executor, event: NewAuditEvent) {
  await ex.insert(auditEvents).values({ id: newId("aud"), ...event });
}

/**
 * A newest-first page of the workspace's events, optionally of one actor and one action. why no
 * index of its own for the filters: audit_events_workspace_created_idx walks the workspace's
 * events newest first and the filter drops rows as it goes (docs/architecture.md: Console).
 */
export function listAuditEvents(ex: Executor, workspaceId: string, limit: number, cursor?: Cursor, filter: AuditFilter = {}): Promise<AuditEventRow[]> {
  return ex
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.workspaceId, workspaceId),
        filter.actorId === undefined ? undefined : eq(auditEvents.actorId, filter.actorId),
        filter.action === undefined ? undefined : eq(auditEvents.action, filter.action),
        olderThan(auditEvents.createdAt, auditEvents.id, cursor),
      ),
    )
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit + 1);
}

/** The distinct actions recorded in the workspace, alphabetically (at most `limit`). */
export async function listActions(ex: Executor, workspaceId: string, limit: number): Promise<string[]> {
  const rows = await ex
    .selectDistinct({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.workspaceId, workspaceId))
    .orderBy(asc(auditEvents.action))
    .limit(limit);
  return rows.map((r) => r.action);
}

/** The distinct actors of the workspace's events, the most recently active first (at most `limit`). */
export function listActors(ex: Executor, workspaceId: string, limit: number) {
  return ex
    .select({ type: auditEvents.actorType, id: auditEvents.actorId, lastAt: sql<string>`max(${auditEvents.createdAt})`.as("last_at") })
    .from(auditEvents)
    .where(eq(auditEvents.workspaceId, workspaceId))
    .groupBy(auditEvents.actorType, auditEvents.actorId)
    .orderBy(sql`last_at desc`)
    .limit(limit);
}

/**
 * Emails of the people among `ids` who acted in the workspace (an audit event of the workspace
 * names them as actor), so a caller cannot learn the email of someone who never did.
 */
export function findActingUsers(ex: Executor, workspaceId: string, ids: string[]) {
  return ex
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(
      and(
        inArray(users.id, ids),
        sql`exists (select 1 from ${auditEvents} where ${auditEvents.workspaceId} = ${workspaceId} and ${auditEvents.actorType} = 'user' and ${auditEvents.actorId} = ${users.id})`,
      ),
    );
}

/** Names of the workspace's keys among `ids` (deleted keys are absent). */
export function findKeyNames(ex: Executor, workspaceId: string, ids: string[]) {
  return ex
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), inArray(apiKeys.id, ids)));
}
