import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * Wrong passwords per account and client address in a fixed window (lib/users/password-attempts.ts),
 * shared by sign-in, accepting an invitation with an existing account, and changing a password.
 * why per address too: counted per account alone, anyone could lock anyone out by guessing.
 */
export const passwordFailures = pgTable(
  "password_failures",
  {
    /** Hex SHA-256 of the lower-cased email, so unknown addresses are counted alike and no address is stored. */
    account: text("account").notNull(),
    /** Hex SHA-256 of the client address's rate-limit bucket (IPv4 whole, IPv6 per /64), so no address is stored. */
    address: text("address").notNull(),
    /** When the window began: the first attempt after the previous window ended. */
    windowStart: ts("window_start").notNull(),
    /** Password checks in the window that did not succeed (and ones still running). */
    failures: integer("failures").notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);
