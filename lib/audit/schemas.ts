import { z } from "zod";
import { PageQuery } from "../paging";

/** GET /v1/audit-events: a page, optionally of one actor (its id) and one action. */
export const AuditListQuery = PageQuery.extend({
  actorId: z.string().min(1).max(128).optional(),
  action: z.string().min(1).max(100).optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

export type AuditEvent = {
  id: string;
  action: string;
  actor: { type: "user" | "apiKey" | "system"; id: string };
  targetType: string;
  targetId: string;
  createdAt: string;
  details: Record<string, unknown>;
};
