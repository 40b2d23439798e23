// MembersTable: the workspace's people. Owners and admins change roles (a select) and remove people
// (after confirming); everyone else sees the same table read-only. The server checks every change.
"use client";
import { UserMinus } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ActionsHead, IconAction, RowActions } from "@/components/ui/row-actions";
import { Select } from "@/components/ui/select";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { Role } from "@/lib/console/sections";
import type { Member } from "@/lib/people/schemas";
import type { ChangeRoleAction, RemoveMemberAction } from "./action-types";
import { roleNames, roleOptions } from "./roles";

export type MembersTableProps = { members: Member[]; youId: string; canManage: boolean; isOwner: boolean; changeRole: ChangeRoleAction; remove: RemoveMemberAction };

// On a phone (below sm) a row is a card: the person and the remove button, then the role below
// (the person takes all but the button's room, so the role wraps to a line of its own).
const card = "max-sm:flex max-sm:flex-wrap max-sm:items-start max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-4 max-sm:py-3";

const joined = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function MembersTable({ members, youId, canManage, isOwner, changeRole, remove }: MembersTableProps) {
  return (
    // why relative: the role select's hidden native <select> is absolutely placed; the table's
    // scrolling box must contain it, or the page grows wider than a phone.
    <Table label="Members" className="relative">
      {/* why sr-only on a phone: each row is a small card there; screen readers keep the headers. */}
      <THead className="max-sm:sr-only">
        <TRow>
          <TH>Person</TH>
          <TH>Role</TH>
          <TH className="hidden md:table-cell">Joined</TH>
          {canManage && <ActionsHead />}
        </TRow>
      </THead>
      <TBody className="max-sm:block">
        {members.map((m) => (
          <MemberRow key={`${m.userId}:${m.role}`} m={m} you={m.userId === youId} canManage={canManage} isOwner={isOwner} changeRole={changeRole} remove={remove} />
        ))}
      </TBody>
    </Table>
  );
}

function MemberRow({ m, you, canManage, isOwner, changeRole, remove: removeMember }: { m: Member; you: boolean; canManage: boolean; isOwner: boolean; changeRole: ChangeRoleAction; remove: RemoveMemberAction }) {
  const toast = useToast();
  const [role, setRole] = useState<Role>(m.role);
  const [busy, setBusy] = useState(false);
  // spec: only owners change or remove an owner.
  const mayChange = canManage && (m.role !== "owner" || isOwner);
  const name = m.name ?? m.email;

  const change = async (next: Role) => {
    const before = role;
    setRole(next);
    setBusy(true);
    const r = await changeRole({ userId: m.userId, role: next });
    setBusy(false);
    if (r.ok) toast.success(`${name} is now ${article(next)} ${roleNames[next].toLowerCase()}`);
    else {
      setRole(before);
      toast.error("The role was not changed", r.error.message);
    }
  };

  const remove = async () => {
    const r = await removeMember({ userId: m.userId });
    if (r.ok) toast.success(`${name} was removed from the workspace`);
    else toast.error(`${name} was not removed`, r.error.message);
  };

  return (
    <TRow className={card}>
      <TCell className="min-w-0 max-sm:block max-sm:grow max-sm:basis-[calc(100%-4rem)] max-sm:p-0 sm:min-w-48">
        <div className="font-medium">
          {m.name ?? <span className="text-gray-600">No name</span>}
          {you && (
            <Badge tone="accent" className="ml-2">
              You
            </Badge>
          )}
        </div>
        <div className="text-sm break-all text-gray-600 sm:break-normal">{m.email}</div>
      </TCell>
      <TCell className="w-48 min-w-40 max-sm:order-last max-sm:block max-sm:p-0">
        {mayChange ? (
          <Select aria-label={`Role of ${name}`} value={role} onValueChange={(v) => void change(v as Role)} options={roleOptions(isOwner)} disabled={busy} />
        ) : (
          <Badge tone={m.role === "owner" ? "accent" : "neutral"}>{roleNames[m.role]}</Badge>
        )}
      </TCell>
      <TCell className="hidden whitespace-nowrap text-gray-700 md:table-cell">{joined(m.joinedAt)}</TCell>
      {canManage && (
        <TCell className="max-sm:block max-sm:p-0">
          <RowActions>
            {mayChange && !you && (
              <ConfirmDialog
                danger
                title={`Remove ${name}?`}
                text={`${name} loses access to this workspace at once. Their account stays, and you can invite them again.`}
                confirmLabel="Remove"
                onConfirm={remove}
                trigger={<IconAction icon={UserMinus} label={`Remove ${name}`} title="Remove" />}
              />
            )}
          </RowActions>
        </TCell>
      )}
    </TRow>
  );
}

const article = (r: Role) => (r === "owner" || r === "admin" ? "an" : "a");
