// AuditTable: a page of audit events: when, who (a person's email, a key's name, or the system),
// what (the action), on what (the target), and the details, expandable.
import { Bot, KeyRound, User } from "lucide-react";
import { DateTime } from "@/components/date-time";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import type { AuditActor, AuditEvent } from "@/lib/audit";

const actorIcons = { user: User, apiKey: KeyRound, system: Bot } as const;
const targetLabels: Record<string, string> = { api_key: "API key", user: "Person", workspace: "Workspace", template: "Template", render: "Render", workspace_folder: "Folder", workspace_file: "File" };

export function ActorCell({ actor }: { actor: AuditActor }) {
  const Icon = actorIcons[actor.type];
  return (
    <span className="flex items-start gap-2">
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500" />
      <span className="min-w-0">
        <span className="block max-w-56 truncate" title={actor.label}>
          {actor.label}
        </span>
        {actor.detail && <span className="block text-xs text-gray-600">{actor.detail}</span>}
      </span>
    </span>
  );
}

function Details({ details }: { details: Record<string, unknown> }) {
  if (Object.keys(details).length === 0) return <span className="text-gray-600">None</span>;
  return (
    <details className="group max-w-md">
      <summary className="cursor-pointer rounded text-sm font-medium text-accent hover:underline">Details</summary>
      <pre className="mt-2 max-h-64 overflow-auto rounded-md bg-gray-50 p-2 font-mono text-xs whitespace-pre-wrap text-gray-900">{JSON.stringify(details, null, 2)}</pre>
    </details>
  );
}

export function AuditTable({ items, actors }: { items: readonly AuditEvent[]; actors: ReadonlyMap<string, AuditActor> }) {
  return (
    <Table label="Audit events">
      <THead>
        <TRow>
          <TH>Time</TH>
          <TH>Actor</TH>
          <TH>Action</TH>
          <TH>Target</TH>
          <TH>Details</TH>
        </TRow>
      </THead>
      <TBody>
        {items.map((e) => {
          const actor = actors.get(`${e.actor.type}:${e.actor.id}`) ?? { ...e.actor, label: e.actor.id };
          return (
            <TRow key={e.id} className="align-top">
              <TCell className="align-top whitespace-nowrap">
                <DateTime iso={e.createdAt} />
              </TCell>
              <TCell className="align-top">
                <ActorCell actor={actor} />
              </TCell>
              <TCell className="align-top">
                <code className="font-mono text-xs whitespace-nowrap">{e.action}</code>
              </TCell>
              <TCell className="align-top">
                <span className="block text-xs text-gray-600">{targetLabels[e.targetType] ?? e.targetType}</span>
                <code className="font-mono text-xs break-all">{e.targetId}</code>
              </TCell>
              <TCell className="align-top">
                <Details details={e.details} />
              </TCell>
            </TRow>
          );
        })}
      </TBody>
    </Table>
  );
}
