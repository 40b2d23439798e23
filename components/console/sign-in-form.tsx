// SignInForm: email and password; says what went wrong (wrong password, too many attempts) and
// goes to `next` (already checked to be a path of the console) when the sign-in succeeds.
"use client";
import { CircleAlert } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { safeNextPath } from "@/lib/console/next-path";
import { signInWithPassword } from "./auth-client";

export function SignInForm({ next, initialError }: { next: string; initialError?: string }) {
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);
  const password = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(undefined);
    const outcome = await signInWithPassword(String(form.get("email") ?? ""), String(form.get("password") ?? ""), next);
    if (outcome.ok) {
      // why a full load: the console's shell is rendered for the person now signed in.
      window.location.assign(safeNextPath(next));
      return;
    }
    setBusy(false);
    setError(outcome.message);
    password.current?.select();
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate={false} className="space-y-5" aria-describedby={error ? "sign-in-error" : undefined}>
      <div role="alert" id="sign-in-error" className={error ? "flex gap-2 rounded-md border border-danger/30 bg-danger-soft p-3 text-sm text-danger" : "sr-only"}>
        {error && (
          <>
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{error}</span>
          </>
        )}
      </div>
      <Field label="Email">{(p) => <Input {...p} name="email" type="email" autoComplete="username" required autoFocus maxLength={254} />}</Field>
      <Field label="Password">{(p) => <Input {...p} ref={password} name="password" type="password" autoComplete="current-password" required maxLength={1024} />}</Field>
      <Button type="submit" className="w-full" loading={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
