import Link from "@/components/ui/link";
import { AcceptInvitationForm } from "@/components/people/accept-invitation-form";
import { AuthCard } from "@/components/people/auth-card";
import { roleNames } from "@/components/people/roles";
import { buttonClasses } from "@/components/ui/button";
import { isAppError } from "@/lib/errors";
import * as people from "@/lib/people";
import { acceptInvitationAction } from "../../account-actions";

export const metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

/** The invitee's page: join with a new account or an existing one; a closed link says why. */
export default async function InvitationPage({ params }: Props) {
  const { token } = await params;
  let inv: people.InvitationPreview;
  try {
    inv = await people.getInvitation(token);
  } catch (e) {
    if (!isAppError(e) || e.code !== "NOT_FOUND") throw e;
    return (
      <AuthCard title="This invitation link is not valid" description="Check that you copied all of it. If it was re-sent, only the newest link works; ask the person who invited you for a new one." />
    );
  }
  const signIn = (
    <Link href="/sign-in" className={buttonClasses("primary", "md", "w-full")}>
      Go to sign-in
    </Link>
  );
  switch (inv.status) {
    case "accepted":
      return <AuthCard title="This invitation was already used" description={`Sign in as ${inv.email} to reach ${inv.workspaceName}.`}>{signIn}</AuthCard>;
    case "cancelled":
      return <AuthCard title="This invitation was cancelled" description={`Ask ${inv.invitedBy ?? "the person who invited you"} for a new invitation to ${inv.workspaceName}.`} />;
    case "expired":
      return (
        <AuthCard
          title="This invitation has expired"
          description={`Invitations work for 7 days. Ask ${inv.invitedBy ?? "the person who invited you"} to re-send it; the new link will work for another 7 days.`}
        />
      );
    case "pending":
      return (
        <AuthCard
          title={`Join ${inv.workspaceName}`}
          description={
            <>
              {inv.invitedBy ? `${inv.invitedBy} invited you` : "You are invited"} as {roleNames[inv.role].toLowerCase()}.{" "}
              {inv.hasAccount ? `Sign in with the password of your account ${inv.email} to join.` : `Choose your name and a password for ${inv.email}.`}
            </>
          }
        >
          <AcceptInvitationForm token={token} email={inv.email} hasAccount={inv.hasAccount} accept={acceptInvitationAction} />
        </AuthCard>
      );
  }
}
