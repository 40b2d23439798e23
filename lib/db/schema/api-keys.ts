import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { workspaces } from "./workspaces";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scopes: text("scopes").array().notNull(),
    /** First 8 characters of the secret, for display ("folio_ab"). */
    prefix: text("prefix").notNull(),
    /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** Lifetime chosen at creation, in days; null never expires. Rotation counts it again from now. */
    lifetimeDays: integer("lifetime_days"),
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
    /** Set when rotated: the old secret keeps working until expiresAt (now + 15 min at most). */
    rotatedAt: ts("rotated_at"),
    lastUsedAt: ts("last_used_at"),
    /** The self-hosted deploy key from DEPLOY_API_KEY. */
    setByServer: boolean("set_by_server").notNull().default(false),
    createdByUserId: text("created_by_user_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_key").on(t.secretHash),
    index("api_keys_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
