// ForgotPasswordForm: asks for a reset link. The answer is the same whether or not the address has
// an account, so it says "if".
"use client";
import { MailCheck } from "lucide-react";
import Link from "@/components/ui/link";
import { useState, type FormEvent } from "react";
import type { RequestPasswordResetAction } from "./action-types";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError, fieldErrors } from "./form-error";

export function ForgotPasswordForm({ requestReset }: { requestReset: RequestPasswordResetAction }) {
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
    setBusy(true);
    setError(undefined);
    const r = await requestReset({ email });
    setBusy(false);
    if (r.ok) setSentTo(email);
    else setError({ message: r.error.message, fields: fieldErrors(r.error) });
  };

  if (sentTo) {
    return (
      <div className="space-y-5">
        <p role="status" className="flex gap-2 rounded-md border border-success/30 bg-success-soft p-3 text-sm text-success">
          <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {/* why min-w-0 and anywhere: a flex item is as wide as its longest word, and an address can be longer than the card. */}
          <span className="min-w-0 [overflow-wrap:anywhere]">If {sentTo} has a Folio account, we sent it a link to reset the password. Check your inbox; the link works for one hour.</span>
        </p>
        <Link href="/sign-in" className="text-sm font-medium text-accent underline-offset-4 hover:underline">
          Back to sign-in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" noValidate>
      <FormError message={error && !Object.keys(error.fields).length ? error.message : undefined} />
      <Field label="Email" error={error?.fields.email}>
        {(p) => <Input {...p} name="email" type="email" autoComplete="username" required maxLength={254} autoFocus />}
      </Field>
      <Button type="submit" className="w-full" loading={busy}>
        {busy ? "Sending…" : "Send reset link"}
      </Button>
      <Link href="/sign-in" className="block text-center text-sm font-medium text-accent underline-offset-4 hover:underline">
        Back to sign-in
      </Link>
    </form>
  );
}
