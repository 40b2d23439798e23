// UsageDays: a bar chart of renders and pages per day (days without usage left out), then the same
// numbers as a table, which is what assistive technology reads (the chart is hidden from it).
import { formatBytes } from "@/components/format";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import type { Usage } from "@/lib/usage";

const n = (v: number) => v.toLocaleString("en-GB");

export function UsageDays({ usage }: { usage: Usage }) {
  const max = Math.max(1, ...usage.days.map((d) => d.rendersSucceeded + d.rendersFailed + d.rendersCancelled));
  const maxPages = Math.max(1, ...usage.days.map((d) => d.pages));
  return (
    <div className="space-y-4">
      <div aria-hidden="true" className="overflow-x-auto rounded-lg border border-gray-200 bg-white p-4">
        <div className="flex h-40 min-w-max items-end gap-1">
          {usage.days.map((d) => {
            const renders = d.rendersSucceeded + d.rendersFailed + d.rendersCancelled;
            return (
              <div key={d.date} className="flex h-full w-6 flex-col items-center justify-end gap-0.5" title={`${d.date}: ${renders} renders, ${d.pages} pages`}>
                <div className="flex w-full items-end gap-0.5" style={{ height: "100%" }}>
                  <div className="w-1/2 rounded-t bg-blue-600" style={{ height: `${Math.round((renders / max) * 100)}%` }} />
                  <div className="w-1/2 rounded-t bg-emerald-500" style={{ height: `${Math.round((d.pages / maxPages) * 100)}%` }} />
                </div>
                <span className="text-[10px] text-gray-600">{d.date.slice(8)}</span>
              </div>
            );
          })}
        </div>
        <p className="mt-2 flex gap-4 text-xs text-gray-600">
          <span className="flex items-center gap-1">
            <span className="inline-block size-2 rounded-sm bg-blue-600" /> Renders
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block size-2 rounded-sm bg-emerald-500" /> Pages
          </span>
        </p>
      </div>
      <Table label="Usage by day">
        <THead>
          <TRow>
            <TH>Day (UTC)</TH>
            <TH className="text-right">Succeeded</TH>
            <TH className="text-right">Failed</TH>
            <TH className="text-right">Cancelled</TH>
            <TH className="text-right">Pages</TH>
            <TH className="text-right">Output</TH>
          </TRow>
        </THead>
        <TBody>
          {usage.days.map((d) => (
            <TRow key={d.date}>
              <TCell className="whitespace-nowrap">{d.date}</TCell>
              <TCell className="text-right tabular-nums">{n(d.rendersSucceeded)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.rendersFailed)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.rendersCancelled)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.pages)}</TCell>
              <TCell className="text-right whitespace-nowrap tabular-nums">{formatBytes(d.outputBytes)}</TCell>
            </TRow>
          ))}
          <TRow className="bg-gray-50 font-medium">
            <TCell>Total</TCell>
            <TCell className="text-right tabular-nums">{n(usage.totals.rendersSucceeded)}</TCell>
            <TCell className="text-right tabular-nums">{n(usage.totals.rendersFailed)}</TCell>
            <TCell className="text-right tabular-nums">{n(usage.totals.rendersCancelled)}</TCell>
            <TCell className="text-right tabular-nums">{n(usage.totals.pages)}</TCell>
            <TCell className="text-right whitespace-nowrap tabular-nums">{formatBytes(usage.totals.outputBytes)}</TCell>
          </TRow>
        </TBody>
      </Table>
    </div>
  );
}
