/** People of a workspace: members and roles, invitations, and each person's own profile and password. */
export { LAST_OWNER, roleLabel } from "./actor";
export { changeRole, leaveWorkspace, listPeople, removeMember } from "./members";
export {
  acceptInvitation,
  cancelInvitation,
  createInvitation,
  getInvitation,
  resendInvitation,
  INVITATION_TTL_MS,
  type AcceptedInvitation,
} from "./invitations";
export {
  changePassword,
  getPasswordReset,
  getProfile,
  requestPasswordReset,
  resetPassword,
  signOutEverywhere,
  updateProfile,
  RESET_TTL_MS,
  type PasswordResetState,
  type Profile,
} from "./profile";
export * from "./schemas";
export { mailConfigured } from "../mail";
