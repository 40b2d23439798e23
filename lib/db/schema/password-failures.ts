import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * Wrong passwords per account in a fixed window (lib/users/password-attempts.ts), shared by
 * sign-in, accepting an invitation with an existing account, and changing a password.
 */
export const passwordFailures = pgTable("password_failures", {
  /** Hex SHA-256 of the lower-cased email, so unknown addresses are counted alike and no address is stored. */
  account: text("account").primaryKey(),
  /** When the window began: the first attempt after the previous window ended. */
  windowStart: ts("window_start").notNull(),
  /** Password checks in the window that did not succeed (and ones still running). */
  failures: integer("failures").notNull(),
});
