import { ArrowLeft, Download } from "lucide-react";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { DateTime } from "@/components/date-time";
import { LiveRefresh } from "@/components/renders/live-refresh";
import { RenderStateBadge } from "@/components/renders/render-state-badge";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import * as batches from "@/lib/batches";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Batch" };

const stateNames = [
  ["queued", "Queued"],
  ["processing", "Processing"],
  ["succeeded", "Succeeded"],
  ["failed", "Failed"],
  ["cancelled", "Cancelled"],
] as const;

/** One batch: counts by state and progress while it runs, its items in request order, the combined PDF. */
export default async function BatchPage({ params }: { params: Promise<{ id: string }> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/renders");
  requireScopeOrRefuse(s, "render:read");
  const { id } = await params;
  let view: Awaited<ReturnType<typeof batches.getBatchView>>;
  try {
    view = await batches.getBatchView(s.ctx, id);
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const { summary, formats, combinedRefusal } = view;
  const running = summary.counts.queued + summary.counts.processing;
  const ended = summary.total - running;
  const percent = summary.total ? Math.round((ended / summary.total) * 100) : 100;

  return (
    <>
      <Link href="/renders" className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-accent hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" /> All renders
      </Link>
      <PageHeader
        title="Batch"
        description={
          <>
            <code className="font-mono text-xs break-all">{summary.id}</code> · created <DateTime iso={summary.createdAt} />
          </>
        }
        actions={
          combinedRefusal === undefined ? (
            <a href={`/v1/renders/batch/${summary.id}/pdf`} download={`${summary.id}.pdf`} className={buttonClasses("primary")}>
              <Download aria-hidden="true" className="size-4" /> Download combined PDF
            </a>
          ) : undefined
        }
      />
      <LiveRefresh active={running > 0} label="Updating while the batch runs" />
      <section aria-labelledby="batch-progress" className="mb-6 rounded-lg border border-gray-200 bg-white p-5">
        <h2 id="batch-progress" className="mb-3 text-base font-semibold text-gray-900">
          {running > 0 ? `${ended} of ${summary.total} items ended` : `All ${summary.total} items ended`}
        </h2>
        <div
          role="progressbar"
          aria-label="Items ended"
          aria-valuemin={0}
          aria-valuemax={summary.total}
          aria-valuenow={ended}
          className="mb-4 h-2 w-full overflow-hidden rounded-full bg-gray-100"
        >
          <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
        </div>
        <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {stateNames.map(([state, label]) => (
            <div key={state} className="flex items-center gap-2">
              <dt className="text-gray-600">{label}</dt>
              <dd className="font-semibold text-gray-900 tabular-nums" data-testid={`count-${state}`}>
                {summary.counts[state]}
              </dd>
            </div>
          ))}
        </dl>
        {combinedRefusal !== undefined && running === 0 && <p className="mt-4 text-sm text-gray-700">No combined PDF: {combinedRefusal}</p>}
      </section>
      <Table label="Batch items">
        <THead>
          <TRow>
            <TH className="text-right">Item</TH>
            {/* why State before Render: at 390 px the table scrolls sideways, and the state is what
                a person watching the batch reads first; the long render ID can go off the edge. */}
            <TH>State</TH>
            <TH>Render</TH>
            <TH>Output</TH>
            <TH>Test</TH>
            <TH>Updated</TH>
          </TRow>
        </THead>
        <TBody>
          {summary.items.map((item) => (
            <TRow key={item.id}>
              <TCell className="text-right tabular-nums">{item.index}</TCell>
              <TCell>
                <RenderStateBadge state={item.state} />
              </TCell>
              <TCell>
                <Link href={`/renders/${item.id}`} className="font-mono text-xs font-medium text-accent underline-offset-2 hover:underline">
                  {item.id}
                </Link>
              </TCell>
              <TCell className="uppercase">{formats[item.id] ?? "pdf"}</TCell>
              <TCell>{item.test ? <Badge tone="warning">Test</Badge> : <span className="sr-only">No</span>}</TCell>
              <TCell className="whitespace-nowrap">
                <DateTime iso={item.updatedAt} />
              </TCell>
            </TRow>
          ))}
        </TBody>
      </Table>
    </>
  );
}
