import { sql } from "drizzle-orm";
import { boolean, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { workspaces } from "./workspaces";

/**
 * A saved storage destination (spec: Storage destination): a caller's S3-compatible bucket that
 * renders upload into. The secret access key is sealed (AES-256-GCM under a key derived from
 * SECRET_KEY) and never returned.
 */
export const storageDestinations = pgTable(
  "storage_destinations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    endpoint: text("endpoint"),
    region: text("region").notNull().default("us-east-1"),
    bucket: text("bucket").notNull(),
    prefix: text("prefix"),
    forcePathStyle: boolean("force_path_style").notNull().default(false),
    accessKeyId: text("access_key_id").notNull(),
    /** The secret access key, sealed; never returned or logged. */
    secretAccessKeySealed: text("secret_access_key_sealed").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("storage_destinations_name_key").on(t.workspaceId, sql`lower(${t.name})`)],
);

export type StorageDestinationRow = typeof storageDestinations.$inferSelect;
