import { z } from "zod";
import { PageQuery, pageOf } from "../paging";

/** GET /v1/audit-events: a page, optionally of one actor (its id) and one action. */
export const AuditListQuery = PageQuery.extend({
  actorId: z.string().min(1).max(128).optional(),
  action: z.string().min(1).max(100).optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

export const AuditEvent = z
  .object({
    id: z.string(),
    action: z.string(),
    actor: z.object({ type: z.enum(["user", "apiKey", "system"]), id: z.string() }),
    targetType: z.string(),
    targetId: z.string(),
    createdAt: z.iso.datetime(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "AuditEvent", description: "Who did what to which resource, and when." });
export type AuditEvent = z.infer<typeof AuditEvent>;
export const AuditEventPage = pageOf(AuditEvent, "AuditEventPage");
