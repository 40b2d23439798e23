import { z } from "zod";
import { fromZodError } from "../errors";
import { roles, type Role } from "../db/schema";
import { Email as EmailAddress } from "../email";

/** The one email rule (lib/email.ts), kept in lower case as users' addresses are. */
export const Email = EmailAddress.transform((e) => e.toLowerCase());
export const Password = z.string().min(8, "must be at least 8 characters").max(1024, "must be at most 1024 characters");
export const PersonName = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
export const RoleInput = z.enum(roles, "must be owner, admin, member or content_editor");

export const CreateInvitationInput = z.strictObject({ email: Email, role: RoleInput });
export type CreateInvitationInput = z.input<typeof CreateInvitationInput>;

export const ChangeRoleInput = z.strictObject({ userId: z.string().min(1).max(100), role: RoleInput });
export type ChangeRoleInput = z.input<typeof ChangeRoleInput>;

/** Accepting: a new person sets name and password; a person with an account gives its password. */
export const AcceptInvitationInput = z.strictObject({
  token: z.string().max(100),
  name: PersonName.optional(),
  password: z.string().min(1, "is required").max(1024),
});
export type AcceptInvitationInput = z.input<typeof AcceptInvitationInput>;

export const UpdateProfileInput = z.strictObject({ name: PersonName });
export type UpdateProfileInput = z.input<typeof UpdateProfileInput>;

export const ChangePasswordInput = z.strictObject({ currentPassword: z.string().min(1, "is required").max(1024), newPassword: Password });
export type ChangePasswordInput = z.input<typeof ChangePasswordInput>;

export const RequestPasswordResetInput = z.strictObject({ email: Email });
export type RequestPasswordResetInput = z.input<typeof RequestPasswordResetInput>;

export const ResetPasswordInput = z.strictObject({ token: z.string().max(100), password: Password });
export type ResetPasswordInput = z.input<typeof ResetPasswordInput>;

export type Member = { userId: string; name?: string; email: string; role: Role; joinedAt: string };

export type Invitation = {
  id: string;
  email: string;
  role: Role;
  /** pending until expiresAt; an expired invitation can be re-sent or cancelled. */
  status: "pending" | "expired";
  invitedBy?: { name?: string; email: string };
  createdAt: string;
  expiresAt: string;
};

export type People = {
  members: Member[];
  invitations: Invitation[];
  /** The caller's own user id and role here (absent for keys and the CLI). */
  you?: { userId: string; role: Role };
};

/** What the invitee's page shows before accepting. */
export type InvitationPreview = {
  workspaceName: string;
  email: string;
  role: Role;
  status: "pending" | "expired" | "cancelled" | "accepted";
  /** True when the email already has an account: the invitee signs in instead of choosing a password. */
  hasAccount: boolean;
  invitedBy?: string;
  expiresAt: string;
};

/**
 * An invitation just made or re-sent: the link is returned this once and never stored; it is left
 * out when it goes only by mail (SMTP_URL set and no account for the address).
 */
export type IssuedInvitation = { invitation: Invitation; link?: string; email: "sent" | "failed" | "not_configured" };

/** Parses a verb's input; a bad value is a BAD_REQUEST naming each field (as the console shows it). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw fromZodError(r.error);
  return r.data;
}
