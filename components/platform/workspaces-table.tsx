// WorkspacesTable: the platform's workspaces with their allowances, suspended state and usage over
// the page's range; each row edits allowances (a dialog) and suspends or unsuspends (after
// confirming). The server checks that the person is a platform administrator on every change.
"use client";
import { Ban, CircleCheck } from "lucide-react";
import { updatePlatformWorkspaceAction } from "@/app/(console)/platform/actions";
import { formatBytes } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { PlatformWorkspace } from "@/lib/workspaces";
import { EditAllowancesDialog } from "./edit-allowances-dialog";

export type PlatformRow = PlatformWorkspace & { usage: { rendersSucceeded: number; rendersFailed: number; pages: number; outputBytes: number } };

const n = (v: number) => v.toLocaleString("en-GB");
const orUnlimited = (v: number | null, f: (x: number) => string = n) => (v === null ? "unlimited" : f(v));

export function WorkspacesTable({ rows }: { rows: PlatformRow[] }) {
  return (
    <Table label="Workspaces">
      <THead>
        <TRow>
          <TH>Workspace</TH>
          <TH>Allowances</TH>
          <TH>Usage</TH>
          <TH>
            <span className="sr-only">Actions</span>
          </TH>
        </TRow>
      </THead>
      <TBody>
        {rows.map((w) => (
          <WorkspaceRow key={w.id} w={w} />
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

function WorkspaceRow({ w }: { w: PlatformRow }) {
  const toast = useToast();
  const l = w.limits;
  const toggle = async () => {
    const r = await updatePlatformWorkspaceAction({ id: w.id, suspended: !w.suspended });
    if (r.ok) toast.success(r.data.suspended ? `${w.name} is suspended` : `${w.name} is active again`);
    else toast.error(w.suspended ? `${w.name} was not unsuspended` : `${w.name} was not suspended`, r.error.message);
  };
  return (
    <TRow aria-label={w.name}>
      <TCell className="min-w-48 align-top">
        <div className="font-medium text-gray-900">{w.name}</div>
        <div className="font-mono text-xs break-all text-gray-600">{w.id}</div>
        <div className="mt-1 flex flex-wrap gap-1">
          {w.suspended ? <Badge tone="danger">Suspended</Badge> : <Badge tone="success">Active</Badge>}
          {w.plan && <Badge tone="accent">Plan: {w.plan}</Badge>}
        </div>
      </TCell>
      <TCell className="min-w-60 align-top">
        <dl className="space-y-0.5 text-xs">
          <Pair term="Active renders" value={n(l.maxActiveRenders)} />
          <Pair term="Renders per minute" value={n(l.rendersPerMinute)} />
          <Pair term="Documents per month" value={`${n(l.documentsThisMonth)} of ${orUnlimited(l.documentsPerMonth)}`} />
          <Pair term="Storage" value={`${formatBytes(l.storageBytes)} of ${orUnlimited(l.maxStorageBytes, formatBytes)}`} />
          <Pair term="Test renders per day" value={`${n(l.testRendersToday)} of ${orUnlimited(l.testRendersPerDay)}`} />
        </dl>
      </TCell>
      <TCell className="min-w-52 align-top">
        <dl className="space-y-0.5 text-xs">
          <Pair term="Succeeded" value={n(w.usage.rendersSucceeded)} />
          <Pair term="Failed" value={n(w.usage.rendersFailed)} />
          <Pair term="Pages" value={n(w.usage.pages)} />
          <Pair term="Output" value={formatBytes(w.usage.outputBytes)} />
        </dl>
      </TCell>
      <TCell className="align-top">
        <div className="flex flex-col items-stretch gap-2">
          <EditAllowancesDialog workspace={w} />
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
            trigger={
              <Button variant="secondary" size="sm" aria-label={`${w.suspended ? "Unsuspend" : "Suspend"} ${w.name}`}>
                {w.suspended ? <CircleCheck aria-hidden="true" className="size-4" /> : <Ban aria-hidden="true" className="size-4" />}
                {w.suspended ? "Unsuspend" : "Suspend"}
              </Button>
            }
          />
        </div>
      </TCell>
    </TRow>
  );
}
