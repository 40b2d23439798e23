import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/** spec: Endpoints > Renders rule 4; decisions.md: remembered 24 hours per workspace and endpoint. */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    workspaceId: text("workspace_id").notNull(),
    /** "POST /v1/renders": method and route, so each endpoint has its own keys. */
    endpoint: text("endpoint").notNull(),
    key: text("key").notNull(),
    /** Hex SHA-256 of the canonical JSON body. */
    requestHash: text("request_hash").notNull(),
    /** What the first request created (a render or batch id). */
    resourceId: text("resource_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.endpoint, t.key] })],
);
