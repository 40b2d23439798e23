import { MailPlus, Users } from "lucide-react";
import { InvitationsTable } from "@/components/people/invitations-table";
import { InviteDialog } from "@/components/people/invite-dialog";
import { MembersTable } from "@/components/people/members-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { can, requireConsole, requireSectionOrRefuse } from "@/lib/console";
import * as people from "@/lib/people";
import { cancelInvitationAction, changeRoleAction, inviteAction, removeMemberAction, resendInvitationAction } from "./actions";

export const metadata = { title: "People" };

/** The workspace's people and open invitations; owners and admins manage them, members read. */
export default async function PeoplePage() {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/people");
  const data = await people.listPeople(s.ctx);
  const canManage = can(s, "admin:manage");
  const isOwner = s.role === "owner";
  return (
    <>
      <PageHeader
        title="People"
        description={canManage ? `Who can sign in to ${s.workspace.name}, and with which role.` : `Who can sign in to ${s.workspace.name}. Owners and admins invite people and change roles.`}
        actions={canManage ? <InviteDialog isOwner={isOwner} mailConfigured={people.mailConfigured()} invite={inviteAction} /> : undefined}
      />
      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="flex items-center gap-2 text-base font-semibold text-gray-900">
          <Users aria-hidden="true" className="size-4 text-gray-600" />
          Members <span className="font-normal text-gray-600">({data.members.length})</span>
        </h2>
        <MembersTable members={data.members} youId={s.user.id} canManage={canManage} isOwner={isOwner} changeRole={changeRoleAction} remove={removeMemberAction} />
      </section>
      <section aria-labelledby="invitations-heading" className="mt-10 space-y-3">
        <h2 id="invitations-heading" className="flex items-center gap-2 text-base font-semibold text-gray-900">
          <MailPlus aria-hidden="true" className="size-4 text-gray-600" />
          Invitations <span className="font-normal text-gray-600">({data.invitations.length})</span>
        </h2>
        {data.invitations.length ? (
          <InvitationsTable invitations={data.invitations} canManage={canManage} isOwner={isOwner} resend={resendInvitationAction} cancel={cancelInvitationAction} />
        ) : (
          <EmptyState
            icon={MailPlus}
            title="No open invitations"
            text={canManage ? "Invite people by email; they choose a name and password, or sign in if they already have an account." : "Invitations that owners and admins send appear here until they are accepted."}
          />
        )}
      </section>
    </>
  );
}
