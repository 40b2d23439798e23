import { bigint, boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Set by a platform administrator: every request with the workspace's keys answers 403. */
  suspended: boolean("suspended").notNull().default(false),
  /** Hosted mode: the plan that sets the allowances (free, starter, pro, business); null self-hosted. */
  plan: text("plan"),
  // spec: Limits > Render allowances. null means unlimited where the spec allows it.
  maxActiveRenders: integer("max_active_renders").notNull().default(10),
  rendersPerMinute: integer("renders_per_minute").notNull().default(60),
  documentsPerMonth: integer("documents_per_month"),
  maxStorageBytes: bigint("max_storage_bytes", { mode: "number" }),
  testRendersPerDay: integer("test_renders_per_day"),
  templateConversionsPerMonth: integer("template_conversions_per_month"),
  ...timestamps,
});

export type WorkspaceRow = typeof workspaces.$inferSelect;
