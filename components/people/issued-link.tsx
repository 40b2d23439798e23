// IssuedLink: an invitation link shown once after inviting or re-sending, with a copy button and
// what became of the email. Without `link` (the server mails it only: a new account's invitation
// when mail is configured) it says where the link went instead. Each sentence naming the address may
// break inside it (min-w-0, overflow-wrap: anywhere): an address can be longer than the card is wide.
"use client";
import { CircleAlert, MailCheck } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";

export type MailOutcome = "sent" | "failed" | "not_configured";

export function IssuedLink({ email, link, mail }: { email: string; link?: string; mail: MailOutcome }) {
  if (!link) {
    return mail === "sent" ? (
      <p className="flex gap-2 rounded-md border border-success/30 bg-success-soft p-3 text-sm text-success" role="status">
        <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 [overflow-wrap:anywhere]">We emailed the invitation to {email}. The link is not shown here: it creates an account, so it goes only to that mailbox.</span>
      </p>
    ) : (
      <p className="flex gap-2 rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-warning" role="alert">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 [overflow-wrap:anywhere]">The email to {email} could not be sent. The invitation stands; re-send it later to email a new link (it goes only by mail, as it creates an account).</span>
      </p>
    );
  }
  return (
    <div className="space-y-4">
      {mail === "sent" && (
        <p className="flex gap-2 rounded-md border border-success/30 bg-success-soft p-3 text-sm text-success" role="status">
          <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 [overflow-wrap:anywhere]">We emailed the invitation to {email}.</span>
        </p>
      )}
      {mail === "failed" && (
        <p className="flex gap-2 rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-warning" role="alert">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 [overflow-wrap:anywhere]">The email to {email} could not be sent. The invitation stands: copy the link below and send it yourself.</span>
        </p>
      )}
      {mail === "not_configured" && <p className="text-sm text-gray-700">This server sends no mail. Copy the link and send it to {email} yourself.</p>}
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-gray-900" id="invitation-link-label">
          Invitation link
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code aria-labelledby="invitation-link-label" className="block min-w-0 flex-1 rounded-md border border-gray-200 bg-gray-50 px-3 py-2 font-mono text-xs break-all text-gray-900" data-testid="invitation-link">
            {link}
          </code>
          <CopyButton text={link} label="Copy link" />
        </div>
        <p className="text-sm text-gray-600">It is shown only now and works once, for 7 days. To get a new one later, re-send the invitation.</p>
      </div>
    </div>
  );
}
