// WorkspacesTable: the platform's workspaces with their allowances, suspended state and usage over
// the page's range; each row edits allowances (a dialog) and suspends or unsuspends (after
// confirming). The server checks that the person is a platform administrator on every change.
// Below xl (where the four columns no longer fit beside the navigation) each row is a card: name,
// state and actions, then allowances and usage under small headings; the same cells, so the table
// keeps its rows and column headers for screen readers at every width.
"use client";
import { Ban, CircleCheck } from "lucide-react";
import { formatBytes } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ActionsHead, IconAction, RowActions } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { PlatformWorkspace } from "@/lib/workspaces";
import { EditAllowancesDialog, type UpdatePlatformWorkspaceAction } from "./edit-allowances-dialog";

export type PlatformRow = PlatformWorkspace & { usage: { rendersSucceeded: number; rendersFailed: number; pages: number; outputBytes: number } };

const n = (v: number) => v.toLocaleString("en-GB");
const orUnlimited = (v: number | null, f: (x: number) => string = n) => (v === null ? "unlimited" : f(v));

export function WorkspacesTable({ rows, update }: { rows: PlatformRow[]; update: UpdatePlatformWorkspaceAction }) {
  return (
    <Table label="Workspaces">
      {/* why sr-only below xl: the cards name their parts themselves; screen readers keep the headers. */}
      <THead className="max-xl:sr-only">
        <TRow>
          <TH>Workspace</TH>
          <TH>Allowances</TH>
          <TH>Usage</TH>
          <ActionsHead />
        </TRow>
      </THead>
      <TBody className="max-xl:block">
        {rows.map((w) => (
          <WorkspaceRow key={w.id} w={w} update={update} />
        ))}
      </TBody>
    </Table>
  );
}

function Pair({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-gray-600">{term}</dt>
      <dd className="text-right whitespace-nowrap text-gray-900 tabular-nums">{value}</dd>
    </div>
  );
}

/** A card's small heading for a cell, shown where the column headers are not (aria-hidden: they are read). */
function CardLabel({ children }: { children: string }) {
  return (
    <div aria-hidden="true" className="mb-1 text-xs font-medium text-gray-700 xl:hidden">
      {children}
    </div>
  );
}

// The card's grid: on a phone name | actions, then allowances and usage full width; from sm the
// name spans two columns beside the actions, with allowances and usage side by side below.
const card = "max-xl:grid max-xl:grid-cols-[1fr_auto] max-xl:gap-x-4 max-xl:gap-y-3 sm:max-xl:gap-x-8 max-xl:px-4 max-xl:py-4 sm:max-xl:grid-cols-[1fr_1fr_auto]";
const cardCell = "align-top max-xl:block max-xl:p-0";

function WorkspaceRow({ w, update }: { w: PlatformRow; update: UpdatePlatformWorkspaceAction }) {
  const toast = useToast();
  const l = w.limits;
  const toggle = async () => {
    const r = await update({ id: w.id, suspended: !w.suspended });
    if (r.ok) toast.success(r.data.suspended ? `${w.name} is suspended` : `${w.name} is active again`);
    else toast.error(w.suspended ? `${w.name} was not unsuspended` : `${w.name} was not suspended`, r.error.message);
  };
  return (
    <TRow aria-label={w.name} className={card}>
      <TCell className={`${cardCell} min-w-0 sm:max-xl:col-span-2 xl:min-w-48`}>
        <div className="font-medium text-gray-900">{w.name}</div>
        <div className="font-mono text-xs break-all text-gray-600">{w.id}</div>
        <div className="mt-1 flex flex-wrap gap-1">
          {w.suspended ? <Badge tone="danger">Suspended</Badge> : <Badge tone="success">Active</Badge>}
          {w.plan && <Badge tone="accent">Plan: {w.plan}</Badge>}
        </div>
      </TCell>
      <TCell className={`${cardCell} max-sm:col-span-2 xl:min-w-60`}>
        <CardLabel>Allowances</CardLabel>
        <dl className="space-y-0.5 text-xs">
          <Pair term="Active renders" value={n(l.maxActiveRenders)} />
          <Pair term="Renders per minute" value={n(l.rendersPerMinute)} />
          <Pair term="Documents per month" value={`${n(l.documentsThisMonth)} of ${orUnlimited(l.documentsPerMonth)}`} />
          <Pair term="Storage" value={`${formatBytes(l.storageBytes)} of ${orUnlimited(l.maxStorageBytes, formatBytes)}`} />
          <Pair term="Test renders per day" value={`${n(l.testRendersToday)} of ${orUnlimited(l.testRendersPerDay)}`} />
        </dl>
      </TCell>
      <TCell className={`${cardCell} col-span-2 xl:min-w-52`}>
        <CardLabel>Usage</CardLabel>
        <dl className="space-y-0.5 text-xs">
          <Pair term="Succeeded" value={n(w.usage.rendersSucceeded)} />
          <Pair term="Failed" value={n(w.usage.rendersFailed)} />
          <Pair term="Pages" value={n(w.usage.pages)} />
          <Pair term="Output" value={formatBytes(w.usage.outputBytes)} />
        </dl>
      </TCell>
      <TCell className={`${cardCell} max-xl:col-start-2 max-xl:row-start-1 sm:max-xl:col-start-3`}>
        <RowActions>
          <EditAllowancesDialog workspace={w} update={update} />
          <ConfirmDialog
            danger={!w.suspended}
            title={w.suspended ? `Unsuspend ${w.name}?` : `Suspend ${w.name}?`}
            text={
              w.suspended
                ? `${w.name} can render and use its API keys again from the next request.`
                : `Every render and API key request of ${w.name} is refused (403) from the next request; renders already accepted finish. Its members can still sign in, read and export.`
            }
            confirmLabel={w.suspended ? "Unsuspend" : "Suspend"}
            onConfirm={toggle}
            trigger={<IconAction icon={w.suspended ? CircleCheck : Ban} label={`${w.suspended ? "Unsuspend" : "Suspend"} ${w.name}`} title={w.suspended ? "Unsuspend" : "Suspend"} />}
          />
        </RowActions>
      </TCell>
    </TRow>
  );
}
