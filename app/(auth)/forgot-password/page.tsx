import Link from "@/components/ui/link";
import { ForgotPasswordForm } from "@/components/people/forgot-password-form";
import { AuthCard } from "@/components/people/auth-card";
import { mailConfigured } from "@/lib/people";
import { requestPasswordResetAction } from "../account-actions";

export const metadata = { title: "Forgot password" };
export const dynamic = "force-dynamic";

/** "Forgot password": exists only when the server sends mail. */
export default function ForgotPasswordPage() {
  if (!mailConfigured()) {
    return (
      <AuthCard title="Password reset is not available" description="This server sends no mail, so it cannot send you a link. Ask your administrator to reset your password.">
        <Link href="/sign-in" className="text-sm font-medium text-accent underline-offset-4 hover:underline">
          Back to sign-in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" description="Enter the email of your account. We send you a link to choose a new password; it works once, for one hour.">
      <ForgotPasswordForm requestReset={requestPasswordResetAction} />
    </AuthCard>
  );
}
