// InviteDialog: "Invite people": an email and a role (owner only for owners), then the link once.
"use client";
import { UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { Role } from "@/lib/console/sections";
import type { InviteAction } from "./action-types";
import { IssuedLink, type MailOutcome } from "./issued-link";
import { FormError, fieldErrors } from "./form-error";
import { roleOptions } from "./roles";

type Issued = { email: string; link?: string; mail: MailOutcome };

export function InviteDialog({ isOwner, mailConfigured, invite }: { isOwner: boolean; mailConfigured: boolean; invite: InviteAction }) {
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<Role>("member");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();
  const [issued, setIssued] = useState<Issued>();

  const reset = (v: boolean) => {
    if (busy) return;
    setOpen(v);
    if (!v) {
      setIssued(undefined);
      setError(undefined);
      setRole("member");
    }
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
    setBusy(true);
    setError(undefined);
    const r = await invite({ email, role });
    setBusy(false);
    if (r.ok) setIssued({ email: r.data.invitation.email, link: r.data.link, mail: r.data.email });
    else setError({ message: r.error.message, fields: fieldErrors(r.error) });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={reset}
      title={issued ? "Invitation ready" : "Invite people"}
      description={issued ? undefined : mailConfigured ? "We email them a link to join. You also get the link to share when the address already has an account." : "You get a link to share with them; it works once, for 7 days."}
      trigger={
        <Button>
          <UserPlus aria-hidden="true" className="size-4" />
          Invite people
        </Button>
      }
    >
      {issued ? (
        <>
          <IssuedLink {...issued} />
          <DialogFooter>
            <Button onClick={() => reset(false)}>Done</Button>
          </DialogFooter>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
          <FormError message={error && !Object.keys(error.fields).length ? error.message : undefined} />
          <Field label="Email" error={error?.fields.email}>
            {(p) => <Input {...p} name="email" type="email" autoComplete="off" required maxLength={254} autoFocus placeholder="name@example.com" />}
          </Field>
          <Field label="Role" error={error?.fields.role} hint={isOwner ? undefined : "Only owners can invite an owner."}>
            {(p) => <Select {...p} name="role" value={role} onValueChange={(v) => setRole(v as Role)} options={roleOptions(isOwner)} />}
          </Field>
          <DialogFooter>
            <Button variant="secondary" onClick={() => reset(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {busy ? "Inviting…" : "Send invitation"}
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
