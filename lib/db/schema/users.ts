import { boolean, integer, pgTable, primaryKey, text, uniqueIndex, index } from "drizzle-orm/pg-core";
import { timestamps, ts } from "./columns";
import { workspaces } from "./workspaces";

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased; sign-in compares lower-cased. */
    email: text("email").notNull(),
    name: text("name"),
    /** scrypt$N$r$p$salt$hash, see lib/users/password.ts. */
    passwordHash: text("password_hash").notNull(),
    platformAdmin: boolean("platform_admin").notNull().default(false),
    /**
     * Stamped into each console session at sign-in; a session whose epoch differs has ended. Raised
     * by a password change or reset and by "sign out everywhere" (lib/sessions).
     */
    sessionEpoch: integer("session_epoch").notNull().default(0),
    /** The one session (its `sid`) that outlives the last raise of session_epoch: the one that changed the password. */
    sessionKeptId: text("session_kept_id"),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const roles = ["owner", "admin", "member", "content_editor"] as const;
export type Role = (typeof roles)[number];

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: roles }).notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
