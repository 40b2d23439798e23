import Link from "@/components/ui/link";
import { redirect } from "next/navigation";
import { signInErrors } from "@/components/console/auth-client";
import { SignInForm } from "@/components/console/sign-in-form";
import { AuthCard } from "@/components/people/auth-card";
import { consoleSession, safeNextPath } from "@/lib/console";
import { mailConfigured } from "@/lib/mail";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** next-auth's ?error= codes as sentences (it sends people here on its own failures too). */
const errors: Record<string, string> = {
  ...signInErrors,
  SessionRequired: "Sign in to continue.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The console's sign-in page, outside the shell. A person already signed in goes on to `next`. */
export default async function SignInPage({ searchParams }: Props) {
  const q = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const next = safeNextPath(one(q.next) ?? one(q.callbackUrl));
  if (await consoleSession()) redirect(next);
  const code = one(q.error);
  const initialError = code ? (errors[code] ?? "Sign-in failed; try again.") : undefined;
  return (
    <AuthCard
      title="Sign in to Folio"
      description={next === "/" ? "Use the email and password of your Folio account." : "Sign in to continue where you were."}
      footer={
        // "Forgot password" exists only when the server sends mail (docs/api.md, People).
        mailConfigured() && (
          <p className="mt-6 text-center text-sm">
            <Link href="/forgot-password" className="font-medium text-accent underline-offset-4 hover:underline">
              Forgot password?
            </Link>
          </p>
        )
      }
    >
      <SignInForm next={next} initialError={initialError} />
    </AuthCard>
  );
}
