// EndpointsTable: the workspace's webhook endpoints (never their secrets) with their events, state and actions.
import Link from "@/components/ui/link";
import { DateTime } from "@/components/date-time";
import { Badge } from "@/components/ui/badge";
import { ActionsHead } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import type { WebhookEndpoint } from "@/lib/webhooks/schemas";
import { EndpointActions, type EndpointActionsProps } from "./endpoint-actions";

export function EndpointState({ enabled }: { enabled: boolean }) {
  return enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>;
}

export function EventTypes({ types }: { types: readonly string[] }) {
  return (
    <ul className="flex min-w-40 flex-wrap gap-1" aria-label={`${types.length} event types`}>
      {types.map((t) => (
        <li key={t}>
          <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-800">{t}</code>
        </li>
      ))}
    </ul>
  );
}

export function EndpointsTable({ items, actions }: { items: readonly WebhookEndpoint[]; actions: Omit<EndpointActionsProps, "endpoint"> }) {
  return (
    <Table label="Webhook endpoints">
      <THead>
        <TRow>
          <TH>Endpoint</TH>
          <TH>State</TH>
          <TH>Events</TH>
          <TH>Created</TH>
          <ActionsHead />
        </TRow>
      </THead>
      <TBody>
        {items.map((e) => (
          <TRow key={e.id}>
            <TCell>
              <Link href={`/webhooks/${e.id}`} className="block max-w-80 truncate font-medium text-accent hover:underline" title={e.url}>
                {e.url}
              </Link>
              {e.description && <span className="block max-w-80 truncate text-xs text-gray-600">{e.description}</span>}
            </TCell>
            <TCell>
              <EndpointState enabled={e.enabled} />
            </TCell>
            <TCell>
              <EventTypes types={e.eventTypes} />
            </TCell>
            <TCell className="whitespace-nowrap">
              <DateTime iso={e.createdAt} dateOnly />
            </TCell>
            <TCell>
              <EndpointActions endpoint={e} {...actions} />
            </TCell>
          </TRow>
        ))}
      </TBody>
    </Table>
  );
}
