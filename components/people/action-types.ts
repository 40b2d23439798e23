// The shapes of the server actions the people, settings and account pages hand to these components
// as props (app/(console)/people/actions.ts, app/(console)/settings/actions.ts,
// app/(auth)/account-actions.ts): components never import app/ (docs/architecture.md, "Server actions").
import type { ActionResult } from "@/lib/console/action";
import type { AcceptedInvitation } from "@/lib/people/invitations";
import type {
  AcceptInvitationInput,
  ChangePasswordInput,
  ChangeRoleInput,
  CreateInvitationInput,
  IssuedInvitation,
  RequestPasswordResetInput,
  ResetPasswordInput,
} from "@/lib/people/schemas";

type Action<I, O = unknown> = (input: I) => Promise<ActionResult<O>>;

export type InviteAction = Action<CreateInvitationInput, IssuedInvitation>;
export type ResendInvitationAction = Action<{ id: string }, IssuedInvitation>;
export type CancelInvitationAction = Action<{ id: string }>;
export type ChangeRoleAction = Action<ChangeRoleInput>;
export type RemoveMemberAction = Action<{ userId: string }>;
export type LeaveWorkspaceAction = Action<Record<string, never>>;
export type RenameWorkspaceAction = Action<{ name: string }>;
export type UpdateProfileAction = Action<{ name: string }>;
export type ChangePasswordAction = Action<ChangePasswordInput>;
export type SignOutEverywhereAction = Action<Record<string, never>>;
export type AcceptInvitationAction = Action<AcceptInvitationInput, AcceptedInvitation>;
export type RequestPasswordResetAction = Action<RequestPasswordResetInput>;
export type ResetPasswordAction = Action<ResetPasswordInput>;
