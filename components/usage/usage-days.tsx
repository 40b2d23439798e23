// UsageDays: a range's totals (test renders and their pages apart), a chart of renders and one of
// pages per day (test parts in amber stripes), then the days' numbers as a table, which is what assistive
// technology reads (the charts are hidden from it). Test renders are included in every other count;
// string renders and HTML previews create no render, so they stand apart and in no other count.
import { formatBytes } from "@/components/format";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import type { Usage } from "@/lib/usage";
import { UsageChart, type ChartValue } from "./usage-chart";

const n = (v: number) => v.toLocaleString("en-GB");
const count = (v: number, one: string) => `${n(v)} ${one}${v === 1 ? "" : "s"}`;

function Total({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-4">
      <dt className="text-sm font-medium text-gray-700">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-gray-900 tabular-nums">{value}</dd>
      <dd className="mt-1 text-xs text-gray-600">{detail}</dd>
    </div>
  );
}

export function UsageDays({ usage }: { usage: Usage }) {
  const t = usage.totals;
  const renders = (c: Usage["totals"]) => c.rendersSucceeded + c.rendersFailed + c.rendersCancelled;
  const rendersByDay = new Map<string, ChartValue>(usage.days.map((d) => [d.date, { total: renders(d), test: d.testRenders }]));
  const pagesByDay = new Map<string, ChartValue>(usage.days.map((d) => [d.date, { total: d.pages, test: d.testPages }]));
  return (
    <div className="space-y-4">
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Total
          label="Renders"
          value={n(renders(t))}
          detail={`${n(t.testRenders)} test; ${n(t.rendersSucceeded)} succeeded, ${n(t.rendersFailed)} failed, ${n(t.rendersCancelled)} cancelled`}
        />
        <Total label="Pages" value={n(t.pages)} detail={`${n(t.testPages)} of test renders`} />
        <Total label="Output" value={formatBytes(t.outputBytes)} detail="Files of succeeded renders" />
        <Total
          label="Without a render"
          value={n(t.stringRenders + t.htmlPreviews)}
          detail={`${count(t.stringRenders, "string render")}, ${count(t.htmlPreviews, "HTML preview")}; no allowance used`}
        />
      </dl>
      <div className="grid gap-3 lg:grid-cols-2">
        <UsageChart title="Renders per day" from={usage.from} to={usage.to} values={rendersByDay} tone="blue" unit="renders" />
        <UsageChart title="Pages per day" from={usage.from} to={usage.to} values={pagesByDay} tone="emerald" unit="pages" />
      </div>
      <Table label="Usage by day">
        <THead>
          <TRow>
            <TH>Day (UTC)</TH>
            <TH className="text-right">Succeeded</TH>
            <TH className="text-right">Failed</TH>
            <TH className="text-right">Cancelled</TH>
            <TH className="text-right">Test renders</TH>
            <TH className="text-right">Pages</TH>
            <TH className="text-right">Test pages</TH>
            <TH className="text-right">Output</TH>
            <TH className="text-right">String renders</TH>
            <TH className="text-right">HTML previews</TH>
          </TRow>
        </THead>
        <TBody>
          {usage.days.map((d) => (
            <TRow key={d.date}>
              <TCell className="whitespace-nowrap">{d.date}</TCell>
              <TCell className="text-right tabular-nums">{n(d.rendersSucceeded)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.rendersFailed)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.rendersCancelled)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.testRenders)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.pages)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.testPages)}</TCell>
              <TCell className="text-right whitespace-nowrap tabular-nums">{formatBytes(d.outputBytes)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.stringRenders)}</TCell>
              <TCell className="text-right tabular-nums">{n(d.htmlPreviews)}</TCell>
            </TRow>
          ))}
          <TRow className="bg-gray-50 font-medium">
            <TCell>Total</TCell>
            <TCell className="text-right tabular-nums">{n(t.rendersSucceeded)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.rendersFailed)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.rendersCancelled)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.testRenders)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.pages)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.testPages)}</TCell>
            <TCell className="text-right whitespace-nowrap tabular-nums">{formatBytes(t.outputBytes)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.stringRenders)}</TCell>
            <TCell className="text-right tabular-nums">{n(t.htmlPreviews)}</TCell>
          </TRow>
        </TBody>
      </Table>
    </div>
  );
}
