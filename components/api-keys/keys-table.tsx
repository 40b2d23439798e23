// KeysTable: the workspace's API keys (never their secrets) with status, scopes, dates and actions.
import { DateTime } from "@/components/date-time";
import { formatTime } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { ActionsHead } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { scopes as allScopes } from "@/lib/auth/scopes";
import type { ApiKey } from "@/lib/keys/schemas";
import { KeyActions, type KeyActionsProps } from "./key-actions";

export function KeyStatus({ apiKey: k }: { apiKey: ApiKey }) {
  if (k.status === "revoked") return <Badge tone="danger">Revoked</Badge>;
  if (k.status === "expired") return <Badge tone="neutral">Expired</Badge>;
  if (k.rotatedAt) return <Badge tone="warning">Rotated</Badge>;
  return <Badge tone="success">Active</Badge>;
}

function Scopes({ list }: { list: readonly string[] }) {
  if (list.length === allScopes.length) return <span>All scopes</span>;
  return (
    <ul className="flex max-w-60 min-w-40 flex-wrap gap-1" aria-label={`${list.length} scopes`}>
      {list.map((s) => (
        <li key={s}>
          <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-800">{s}</code>
        </li>
      ))}
    </ul>
  );
}

export function KeysTable({ items, actions }: { items: readonly ApiKey[]; actions: Omit<KeyActionsProps, "apiKey"> }) {
  return (
    <Table label="API keys">
      <THead>
        <TRow>
          <TH>Name</TH>
          <TH>Status</TH>
          <TH>Scopes</TH>
          <TH>Created</TH>
          <TH>Last used</TH>
          <TH>Expires</TH>
          <ActionsHead />
        </TRow>
      </THead>
      <TBody>
        {items.map((k) => (
          <TRow key={k.id}>
            <TCell>
              <span className="block max-w-48 truncate font-medium" title={k.name}>
                {k.name}
              </span>
              <code className="font-mono text-xs whitespace-nowrap text-gray-600">{k.prefix}…</code>
              {k.setByServer && (
                <Badge tone="accent" className="ml-2">
                  Set by server
                </Badge>
              )}
            </TCell>
            <TCell>
              <KeyStatus apiKey={k} />
            </TCell>
            <TCell>
              <Scopes list={k.scopes} />
            </TCell>
            <TCell className="whitespace-nowrap">
              <DateTime iso={k.createdAt} dateOnly />
            </TCell>
            <TCell className="whitespace-nowrap">{k.lastUsedAt ? <DateTime iso={k.lastUsedAt} /> : <span className="text-gray-600">Never</span>}</TCell>
            <TCell>
              {k.rotatedAt && k.status === "active" && k.expiresAt ? (
                <span className="block min-w-28">Works until {formatTime(k.expiresAt)}</span>
              ) : k.expiresAt ? (
                <DateTime iso={k.expiresAt} dateOnly className="whitespace-nowrap" />
              ) : (
                <span className="text-gray-600">Never</span>
              )}
            </TCell>
            <TCell>
              <KeyActions apiKey={k} {...actions} />
            </TCell>
          </TRow>
        ))}
      </TBody>
    </Table>
  );
}
