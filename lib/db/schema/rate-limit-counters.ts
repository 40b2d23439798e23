import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/** Fixed-window request counters shared by all web nodes (spec: Limits > Request rates). */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    /** What is counted, e.g. "api:203.0.113.7" or "api:2001:db8:1:2::/64". */
    bucket: text("bucket").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);
