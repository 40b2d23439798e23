import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    // why: no foreign key, so the history outlives deleted keys and users (spec: API key > delete).
    workspaceId: text("workspace_id").notNull(),
    /** resource.verb, e.g. api_key.create. */
    action: text("action").notNull(),
    actorType: text("actor_type", { enum: ["user", "apiKey", "system"] }).notNull(),
    actorId: text("actor_id").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("audit_events_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc())],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
