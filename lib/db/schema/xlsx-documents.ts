import { date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * spec: Limits > Monthly documents: each XLSX output counts as a document once it succeeds, though
 * it creates no render. Per workspace and UTC month; read beside the renders by the monthly count
 * (drizzle/0025_xlsx_documents.sql). Never pruned.
 */
export const xlsxDocuments = pgTable(
  "xlsx_documents",
  {
    workspaceId: text("workspace_id").notNull(),
    /** The first day of the UTC month the documents were made in. */
    month: date("month", { mode: "string" }).notNull(),
    documents: integer("documents").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.month] })],
);
