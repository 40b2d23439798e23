// AcceptInvitationForm: a new person sets a name and password; a person with an account gives its
// password. Then it signs them in and opens the workspace they joined.
"use client";
import { useState, type FormEvent } from "react";
import type { AcceptInvitationAction } from "./action-types";
import { signInWithPassword, switchWorkspace } from "@/components/console/auth-client";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError, fieldErrors } from "./form-error";

export function AcceptInvitationForm({ token, email, hasAccount, accept }: { token: string; email: string; hasAccount: boolean; accept: AcceptInvitationAction }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    const name = hasAccount ? undefined : String(form.get("name") ?? "");
    setBusy(true);
    setError(undefined);
    const r = await accept({ token, password, ...(name !== undefined ? { name } : {}) });
    if (!r.ok) {
      setBusy(false);
      setError({ message: r.error.message, fields: fieldErrors(r.error) });
      return;
    }
    const signedIn = await signInWithPassword(email, password, "/");
    if (!signedIn.ok) {
      // Joined, but the sign-in did not happen (too many attempts, say): the sign-in page takes it from here.
      window.location.assign(new URL("/sign-in", window.location.href));
      return;
    }
    try {
      await switchWorkspace(r.data.workspaceId);
    } catch {
      // The session stays in the person's first workspace; the header's switcher reaches the new one.
    }
    window.location.assign(new URL("/", window.location.href));
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" noValidate>
      <FormError message={error && !Object.keys(error.fields).length ? error.message : undefined} />
      <Field label="Email">{(p) => <Input {...p} name="email" type="email" value={email} readOnly autoComplete="username" />}</Field>
      {!hasAccount && (
        <Field label="Your name" error={error?.fields.name}>
          {(p) => <Input {...p} name="name" autoComplete="name" required maxLength={200} autoFocus />}
        </Field>
      )}
      <Field label={hasAccount ? "Password" : "Choose a password"} error={error?.fields.password} hint={hasAccount ? undefined : "At least 8 characters."}>
        {(p) => <Input {...p} name="password" type="password" autoComplete={hasAccount ? "current-password" : "new-password"} required maxLength={1024} autoFocus={hasAccount} />}
      </Field>
      <Button type="submit" className="w-full" loading={busy}>
        {busy ? "Joining…" : hasAccount ? "Sign in and join" : "Create account and join"}
      </Button>
    </form>
  );
}
