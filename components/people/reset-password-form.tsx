// ResetPasswordForm: a new password (typed twice) for a reset link; then it signs the person in.
"use client";
import { useState, type FormEvent } from "react";
import type { ResetPasswordAction } from "./action-types";
import { signInWithPassword } from "@/components/console/auth-client";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError, fieldErrors } from "./form-error";

export function ResetPasswordForm({ token, email, reset }: { token: string; email: string; reset: ResetPasswordAction }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("confirm") ?? "")) {
      setError({ message: "The passwords differ", fields: { confirm: "does not match the new password" } });
      return;
    }
    setBusy(true);
    setError(undefined);
    const r = await reset({ token, password });
    if (!r.ok) {
      setBusy(false);
      setError({ message: r.error.message, fields: fieldErrors(r.error) });
      return;
    }
    const signedIn = await signInWithPassword(email, password, "/");
    window.location.assign(new URL(signedIn.ok ? "/" : "/sign-in", window.location.href));
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" noValidate>
      <FormError message={error && !Object.keys(error.fields).length ? error.message : undefined} />
      <input type="email" name="username" value={email} readOnly autoComplete="username" hidden />
      <Field label="New password" error={error?.fields.password} hint="At least 8 characters.">
        {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" required maxLength={1024} autoFocus />}
      </Field>
      <Field label="Repeat the new password" error={error?.fields.confirm}>
        {(p) => <Input {...p} name="confirm" type="password" autoComplete="new-password" required maxLength={1024} />}
      </Field>
      <Button type="submit" className="w-full" loading={busy}>
        {busy ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
