// RendersTable: a page of renders with state, source, template, test flag, pages, duration and
// creation time; each row links to the render's page.
import Link from "@/components/ui/link";
import { DateTime } from "@/components/date-time";
import { formatDuration } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import type { Render } from "@/lib/renders/schemas";
import { RenderStateBadge, sourceLabels } from "./render-state-badge";

/** The render's time in the browser: the result's duration, else from start to end; none while it runs. */
export function renderDuration(r: Render): number | undefined {
  if (r.result) return r.result.durationMs;
  if (r.startedAt && r.finishedAt) return Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  return undefined;
}

export function TemplateName({ render, names }: { render: Render; names: ReadonlyMap<string, string> }) {
  if (!render.templateId) return <span className="text-gray-600">None</span>;
  const name = names.get(render.templateId);
  return name ? <span>{name}</span> : <span className="text-gray-600">Deleted template</span>;
}

export function RendersTable({ items, names, label = "Renders" }: { items: readonly Render[]; names: ReadonlyMap<string, string>; label?: string }) {
  return (
    <Table label={label}>
      <THead>
        <TRow>
          <TH>Render</TH>
          <TH>State</TH>
          <TH>Source</TH>
          <TH>Template</TH>
          <TH>Test</TH>
          <TH className="text-right">Pages</TH>
          <TH className="text-right">Duration</TH>
          <TH>Created</TH>
        </TRow>
      </THead>
      <TBody>
        {items.map((r) => {
          const ms = renderDuration(r);
          return (
            <TRow key={r.id}>
              <TCell>
                <Link href={`/renders/${r.id}`} className="font-mono text-xs font-medium text-accent underline-offset-2 hover:underline">
                  {r.id}
                </Link>
                {r.batchId !== undefined && (
                  <Link href={`/renders/batch/${r.batchId}`} className="block text-xs text-gray-600 underline-offset-2 hover:underline">
                    Batch item {r.batchIndex}
                  </Link>
                )}
              </TCell>
              <TCell>
                <RenderStateBadge state={r.state} />
              </TCell>
              <TCell className="whitespace-nowrap">
                {sourceLabels[r.source] ?? r.source} <span className="text-gray-600 uppercase">· {r.format}</span>
              </TCell>
              <TCell className="max-w-48 truncate">
                <TemplateName render={r} names={names} />
              </TCell>
              <TCell>{r.test ? <Badge tone="warning">Test</Badge> : <span className="sr-only">No</span>}</TCell>
              <TCell className="text-right tabular-nums">{r.result ? r.result.pageCount : "—"}</TCell>
              <TCell className="text-right whitespace-nowrap tabular-nums">{ms === undefined ? "—" : formatDuration(ms)}</TCell>
              <TCell className="whitespace-nowrap">
                <DateTime iso={r.createdAt} />
              </TCell>
            </TRow>
          );
        })}
      </TBody>
    </Table>
  );
}
