import { date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * spec: Limits > Monthly documents. Per workspace and UTC month of creation: the succeeded non-test
 * renders that retention deleted. documentsThisMonth (and the admission's monthly check) is the
 * month's renders still kept plus this, so a RETENTION_DAYS shorter than a month takes nothing
 * from the count. Written in the statement that deletes the renders (lib/renders/repository.ts);
 * never pruned.
 */
export const retiredDocuments = pgTable(
  "retired_documents",
  {
    workspaceId: text("workspace_id").notNull(),
    /** The first day of the UTC month the renders were created in. */
    month: date("month", { mode: "string" }).notNull(),
    documents: integer("documents").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.month] })],
);
