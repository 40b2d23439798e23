// InvitationsTable: invitations not accepted yet. Owners and admins re-send (a new link, shown
// once) and cancel them; members see them read-only.
"use client";
import { RotateCw, X } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { ActionsHead, IconAction, RowActions } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { Invitation } from "@/lib/people/schemas";
import type { CancelInvitationAction, ResendInvitationAction } from "./action-types";
import { IssuedLink, type MailOutcome } from "./issued-link";
import { roleNames } from "./roles";

// On a phone (below sm) a row is a card: the email and the actions, then role and status below
// (who invited is left out there).
const card = "max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-4 max-sm:py-3";
const cardCell = "max-sm:block max-sm:p-0";

const date = (iso: string) => new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }) + " UTC";

export function InvitationsTable({ invitations, canManage, isOwner, resend, cancel }: { invitations: Invitation[]; canManage: boolean; isOwner: boolean; resend: ResendInvitationAction; cancel: CancelInvitationAction }) {
  const [issued, setIssued] = useState<{ email: string; link?: string; mail: MailOutcome }>();
  return (
    <>
      <Table label="Invitations" className="relative">
        {/* why sr-only on a phone: each row is a small card there; screen readers keep the headers. */}
        <THead className="max-sm:sr-only">
          <TRow>
            <TH>Email</TH>
            <TH>Role</TH>
            <TH>Status</TH>
            <TH className="max-sm:hidden">Invited by</TH>
            {canManage && <ActionsHead />}
          </TRow>
        </THead>
        <TBody className="max-sm:block">
          {invitations.map((i) => (
            <InvitationRow key={i.id} i={i} canManage={canManage} mayResend={i.role !== "owner" || isOwner} onIssued={setIssued} resendInvitation={resend} cancelInvitation={cancel} />
          ))}
        </TBody>
      </Table>
      <Dialog open={Boolean(issued)} onOpenChange={(v) => !v && setIssued(undefined)} title="Invitation re-sent">
        {issued && <IssuedLink {...issued} />}
        <DialogFooter>
          <Button onClick={() => setIssued(undefined)}>Done</Button>
        </DialogFooter>
      </Dialog>
    </>
  );
}

function InvitationRow({ i, canManage, mayResend, onIssued, resendInvitation, cancelInvitation }: { i: Invitation; canManage: boolean; mayResend: boolean; onIssued: (x: { email: string; link?: string; mail: MailOutcome }) => void; resendInvitation: ResendInvitationAction; cancelInvitation: CancelInvitationAction }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    const r = await resendInvitation({ id: i.id });
    setBusy(false);
    if (r.ok) onIssued({ email: i.email, link: r.data.link, mail: r.data.email });
    else toast.error("The invitation was not re-sent", r.error.message);
  };
  const cancel = async () => {
    const r = await cancelInvitation({ id: i.id });
    if (r.ok) toast.success(`The invitation for ${i.email} was cancelled`);
    else toast.error("The invitation was not cancelled", r.error.message);
  };
  return (
    <TRow className={card}>
      <TCell className={`${cardCell} min-w-0 break-all max-sm:grow max-sm:basis-[calc(100%-6rem)] sm:min-w-48 sm:break-normal`}>{i.email}</TCell>
      <TCell className={`${cardCell} whitespace-nowrap max-sm:order-last`}>{roleNames[i.role]}</TCell>
      <TCell className={`${cardCell} whitespace-nowrap max-sm:order-last`}>
        {i.status === "expired" ? <Badge tone="warning">Expired</Badge> : <Badge tone="success">Pending</Badge>}
        <span className="ml-2 text-gray-700">{i.status === "expired" ? "since" : "until"} {date(i.expiresAt)}</span>
      </TCell>
      <TCell className="whitespace-nowrap text-gray-700 max-sm:hidden">{i.invitedBy ? (i.invitedBy.name ?? i.invitedBy.email) : "Administrator"}</TCell>
      {canManage && (
        <TCell className={cardCell}>
          <RowActions>
            {mayResend && <IconAction icon={RotateCw} label={`Re-send the invitation for ${i.email}`} title="Re-send" loading={busy} onClick={() => void resend()} />}
            <ConfirmDialog
              danger
              title={`Cancel the invitation for ${i.email}?`}
              text="The link stops working at once. You can invite them again later."
              confirmLabel="Cancel invitation"
              cancelLabel="Keep it"
              onConfirm={cancel}
              trigger={<IconAction icon={X} label={`Cancel the invitation for ${i.email}`} title="Cancel" />}
            />
          </RowActions>
        </TCell>
      )}
    </TRow>
  );
}
