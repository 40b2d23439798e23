import { ChangePasswordForm, LeaveWorkspace, ProfileForm, SignOutEverywhere, WorkspaceNameForm } from "@/components/people/settings-forms";
import { PageHeader } from "@/components/ui/page-header";
import { sessionLifetimeMs } from "@/lib/sessions";
import { can, requireConsole, requireSectionOrRefuse } from "@/lib/console";
import * as people from "@/lib/people";
import { leaveWorkspaceAction } from "../people/actions";
import { changePasswordAction, renameWorkspaceAction, signOutEverywhereAction, updateProfileAction } from "./actions";

export const metadata = { title: "Settings" };

function Section({ id, title, text, children }: { id: string; title: string; text: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-4 border-b border-gray-200 py-8 first:pt-0 last:border-b-0 md:grid-cols-3 md:gap-8">
      <div>
        <h2 id={id} className="text-base font-semibold text-gray-900">
          {title}
        </h2>
        <p className="mt-1 text-sm text-gray-600">{text}</p>
      </div>
      <div className="md:col-span-2">{children}</div>
    </section>
  );
}

/** The workspace's name (owners and admins change it), your profile, your password and your sessions. */
export default async function SettingsPage() {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/settings");
  const profile = await people.getProfile(s.ctx);
  const canRename = can(s, "admin:manage");
  const sessionHours = sessionLifetimeMs() / 3_600_000;
  return (
    <>
      <PageHeader title="Settings" description={`Your account, and the workspace ${s.workspace.name}.`} />
      <Section id="workspace-heading" title="Workspace" text={canRename ? "The name everyone in the workspace sees." : "Owners and admins change the workspace's name."}>
        <WorkspaceNameForm name={s.workspace.name} canRename={canRename} rename={renameWorkspaceAction} />
      </Section>
      <Section id="profile-heading" title="Your profile" text="Your name as the people of your workspaces see it.">
        <ProfileForm name={profile.name ?? ""} email={profile.email} update={updateProfileAction} />
      </Section>
      <Section id="password-heading" title="Password" text="Changing it signs you out of every other browser and device; this one stays signed in.">
        <ChangePasswordForm email={profile.email} change={changePasswordAction} />
      </Section>
      <Section id="sessions-heading" title="Sessions" text={`A sign-in lasts ${sessionHours} hours. Signed in somewhere you no longer use, or lost a device? End every session at once.`}>
        <SignOutEverywhere signOut={signOutEverywhereAction} />
      </Section>
      <Section id="leave-heading" title="Leave workspace" text="You lose access to this workspace; your account and other workspaces stay.">
        <LeaveWorkspace workspaceName={s.workspace.name} leave={leaveWorkspaceAction} />
      </Section>
    </>
  );
}
