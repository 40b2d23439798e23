import { bigint, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * spec: Usage record: one row per workspace and UTC day a render ended, or a string render or HTML
 * preview answered; kept after renders are deleted.
 */
export const usageDays = pgTable(
  "usage_days",
  {
    workspaceId: text("workspace_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    rendersSucceeded: integer("renders_succeeded").notNull().default(0),
    rendersFailed: integer("renders_failed").notNull().default(0),
    rendersCancelled: integer("renders_cancelled").notNull().default(0),
    /** Pages of succeeded renders' files. */
    pages: bigint("pages", { mode: "number" }).notNull().default(0),
    /** Bytes of succeeded renders' files. */
    outputBytes: bigint("output_bytes", { mode: "number" }).notNull().default(0),
    /** Beyond the spec: how many of the day's ended renders were test renders (any state; included in the three counters above). */
    testRenders: integer("test_renders").notNull().default(0),
    /** Beyond the spec: pages of succeeded test renders (included in pages). */
    testPages: bigint("test_pages", { mode: "number" }).notNull().default(0),
    /** Beyond the spec: POST /v1/renders/string requests that answered HTML (no render; in no other counter). */
    stringRenders: integer("string_renders").notNull().default(0),
    /** Beyond the spec: template previews answered as HTML (no render; in no other counter). */
    htmlPreviews: integer("html_previews").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day] })],
);
