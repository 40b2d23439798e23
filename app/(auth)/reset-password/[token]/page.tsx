import Link from "@/components/ui/link";
import { AuthCard } from "@/components/people/auth-card";
import { ResetPasswordForm } from "@/components/people/reset-password-form";
import * as people from "@/lib/people";
import { resetPasswordAction } from "../../account-actions";

export const metadata = { title: "Choose a new password" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

const closed: Record<Exclude<people.PasswordResetState, "valid">, { title: string; description: string }> = {
  invalid: { title: "This link is not valid", description: "Check that you copied all of it, or ask for a new link." },
  expired: { title: "This link has expired", description: "Reset links work for one hour. Ask for a new one." },
  used: { title: "This link was already used", description: "Each reset link works once. Sign in with your new password, or ask for a new link." },
};

/** A "forgot password" link: choose a new password, once, within the hour. */
export default async function ResetPasswordPage({ params }: Props) {
  const { token } = await params;
  const r = await people.getPasswordReset(token);
  if (r.state !== "valid") {
    return (
      <AuthCard {...closed[r.state]}>
        <div className="flex flex-col gap-3 text-sm font-medium">
          <Link href="/forgot-password" className="text-accent underline-offset-4 hover:underline">
            Ask for a new link
          </Link>
          <Link href="/sign-in" className="text-accent underline-offset-4 hover:underline">
            Back to sign-in
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" description={`For ${r.email}. After this, the link no longer works.`}>
      <ResetPasswordForm token={token} email={r.email!} reset={resetPasswordAction} />
    </AuthCard>
  );
}
