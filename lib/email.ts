import { z } from "zod";

/**
 * An email address, the one rule for every place Folio takes one (people, invitations and
 * password resets, the admin CLI, ADMIN_EMAIL): what a browser's `<input type="email">` accepts
 * (WHATWG HTML), at most 254 characters. why: zod's default email check also demands a top-level
 * domain of two or more letters, which refused a@b.c and admin@localhost, both real addresses on
 * a self-hosted network and in the README's examples.
 */
export const Email = z.email({ pattern: z.regexes.html5Email, error: "must be an email address such as ada@example.com" }).max(254);
