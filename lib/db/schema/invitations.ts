import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { roles } from "./users";
import { workspaces } from "./workspaces";

/**
 * An invitation to join a workspace with a role. Pending while acceptedAt and cancelledAt are null
 * and expiresAt is ahead; the link's token is shown once and only its SHA-256 is stored.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    /** Stored lower-cased, like users.email. */
    email: text("email").notNull(),
    role: text("role", { enum: roles }).notNull(),
    /** Hex SHA-256 of the link's token; a re-send replaces it, so the old link stops working. */
    tokenHash: text("token_hash").notNull(),
    /** The user who invited (or last re-sent); null when the admin CLI did. */
    invitedByUserId: text("invited_by_user_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Created or re-sent + 7 days. */
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedByUserId: text("accepted_by_user_id"),
    cancelledAt: ts("cancelled_at"),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    // why: at most one open (not accepted, not cancelled) invitation per address and workspace;
    // a new invitation cancels the open one in the same transaction.
    uniqueIndex("invitations_open_email_key")
      .on(t.workspaceId, t.email)
      .where(sql`accepted_at is null and cancelled_at is null`),
    index("invitations_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);

export type InvitationRow = typeof invitations.$inferSelect;
