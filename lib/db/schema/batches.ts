import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { workspaces } from "./workspaces";

/**
 * A batch (spec: Batch summary): no state of its own, only its items, which are renders with
 * `batch_id` and `batch_index` (position in the request, from 0).
 */
export const batches = pgTable(
  "batches",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    itemCount: integer("item_count").notNull(),
    requestId: text("request_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("batches_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc())],
);

export type BatchRow = typeof batches.$inferSelect;
