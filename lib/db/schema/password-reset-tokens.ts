import { index, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { users } from "./users";

/** A "forgot password" link: single use, valid one hour; only the SHA-256 of its token is stored. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    /** Hex SHA-256 of the link's token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    /** Set when the link was used, or when another link of the same user was used. */
    usedAt: ts("used_at"),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
