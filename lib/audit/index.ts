import { actorRef, requireScope, type Ctx } from "../auth/context";
import { db, type Executor } from "../db/client";
import type { AuditEventRow } from "../db/schema";
import { decodeCursor, toPage, type Page } from "../paging";
import * as repo from "./repository";
import type { AuditEvent, AuditListQuery } from "./schemas";

export { AuditListQuery, type AuditEvent } from "./schemas";

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

/** One page of the workspace's audit history, newest first, optionally of one actor and action (audit:read). */
export async function listAuditEvents(ctx: Ctx, query: AuditListQuery): Promise<Page<AuditEvent>> {
  requireScope(ctx, "audit:read");
  const filter = { actorId: query.actorId, action: query.action };
  const rows = await repo.listAuditEvents(db(), ctx.workspaceId, query.limit, decodeCursor(query.cursor), filter);
  return toPage(rows, query.limit, toPublic);
}

export type AuditActorRef = AuditEvent["actor"];
/** An actor as a person reads it: a person's email, a key's name, or the system job. */
export type AuditActor = AuditActorRef & { label: string; detail?: string };

const actorKey = (a: AuditActorRef) => `${a.type}:${a.id}`;

/**
 * Labels for the actors of events (audit:read): a person's email (only of people who acted in
 * this workspace), a key's name and prefix (a deleted key is "Deleted key"), "System" with the job.
 */
export async function describeActors(ctx: Ctx, actors: readonly AuditActorRef[]): Promise<Map<string, AuditActor>> {
  requireScope(ctx, "audit:read");
  const userIds = [...new Set(actors.filter((a) => a.type === "user").map((a) => a.id))].slice(0, 200);
  const keyIds = [...new Set(actors.filter((a) => a.type === "apiKey").map((a) => a.id))].slice(0, 200);
  const [people, keys] = await Promise.all([
    userIds.length ? repo.findActingUsers(db(), ctx.workspaceId, userIds) : [],
    keyIds.length ? repo.findKeyNames(db(), ctx.workspaceId, keyIds) : [],
  ]);
  const emails = new Map(people.map((p) => [p.id, p.email]));
  const names = new Map(keys.map((k) => [k.id, k]));
  const out = new Map<string, AuditActor>();
  for (const a of actors) {
    if (a.type === "user") out.set(actorKey(a), { ...a, label: emails.get(a.id) ?? "Former user" });
    else if (a.type === "apiKey") {
      const k = names.get(a.id);
      out.set(actorKey(a), k ? { ...a, label: k.name, detail: `API key ${k.prefix}…` } : { ...a, label: "Deleted key", detail: "API key" });
    } else out.set(actorKey(a), { ...a, label: "System", detail: a.id });
  }
  return out;
}

export { actorKey as auditActorKey };

/**
 * What the audit history can be filtered by (audit:read): the actions recorded in the workspace
 * and its actors (most recently active first, labelled), at most 200 of each.
 */
export async function auditFilterChoices(ctx: Ctx): Promise<{ actions: string[]; actors: AuditActor[] }> {
  requireScope(ctx, "audit:read");
  const [actions, actorRows] = await Promise.all([repo.listActions(db(), ctx.workspaceId, 200), repo.listActors(db(), ctx.workspaceId, 200)]);
  const refs = actorRows.map((r) => ({ type: r.type, id: r.id }));
  const labels = await describeActors(ctx, refs);
  return { actions, actors: refs.map((r) => labels.get(actorKey(r))!) };
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
