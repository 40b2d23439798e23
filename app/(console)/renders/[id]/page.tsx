import { ArrowLeft, Download, TriangleAlert } from "lucide-react";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { DateTime } from "@/components/date-time";
import { formatBytes, formatDuration } from "@/components/format";
import { CancelRenderButton } from "@/components/renders/cancel-render-button";
import { LiveRefresh } from "@/components/renders/live-refresh";
import { isRunning, RenderStateBadge, sourceLabels } from "@/components/renders/render-state-badge";
import { RenderTimeline } from "@/components/renders/render-timeline";
import { TemplateName } from "@/components/renders/renders-table";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { can, requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import { AppError } from "@/lib/errors";
import * as renders from "@/lib/renders";
import { templateNames } from "@/lib/templates";
import { cancelRenderAction } from "../actions";

export const metadata: Metadata = { title: "Render" };

const formatNames: Record<string, string> = { pdf: "PDF", png: "PNG image", jpeg: "JPEG image" };

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`section-${title}`} className="rounded-lg border border-gray-200 bg-white p-5">
      <h2 id={`section-${title}`} className="mb-4 text-base font-semibold text-gray-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-gray-600">{term}</dt>
          <dd className="min-w-0 break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One render: what was asked, its timeline, its error, its file, and cancel while it runs. */
export default async function RenderPage({ params }: { params: Promise<{ id: string }> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/renders");
  requireScopeOrRefuse(s, "render:read");
  const { id } = await params;
  let render: renders.Render;
  try {
    render = await renders.getRender(s.ctx, id);
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const names = render.templateId && can(s, "template:read") ? await templateNames(s.ctx, [render.templateId]) : new Map<string, string>();
  const running = isRunning(render);
  const mayCancel = running && can(s, "render:cancel");

  const request: [string, ReactNode][] = [
    ["Render ID", <code key="id" className="font-mono text-xs">{render.id}</code>],
    ["Source", sourceLabels[render.source] ?? render.source],
    ["Output", formatNames[render.format] ?? render.format],
    ["Test render", render.test ? <Badge key="t" tone="warning">Test (watermarked)</Badge> : "No"],
    ["Created", <DateTime key="c" iso={render.createdAt} />],
  ];
  if (render.templateId) request.splice(2, 0, ["Template", <TemplateName key="tpl" render={render} names={names} />]);
  if (render.batchId !== undefined) {
    request.push([
      "Batch",
      <Link key="batch" href={`/renders/batch/${render.batchId}`} className="text-accent underline-offset-2 hover:underline">
        Item {render.batchIndex} of batch <code className="font-mono text-xs">{render.batchId}</code>
      </Link>,
    ]);
  }
  if (render.templateVersionId) request.splice(3, 0, ["Template version", <code key="tv" className="font-mono text-xs">{render.templateVersionId}</code>]);

  return (
    <>
      <Link href="/renders" className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-accent hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" /> All renders
      </Link>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            Render <RenderStateBadge state={render.state} />
          </span>
        }
        description={<code className="font-mono text-xs break-all">{render.id}</code>}
        actions={
          <>
            {render.state === "succeeded" && (
              <a href={`/v1/renders/${render.id}/file`} download className={buttonClasses("primary")}>
                <Download aria-hidden="true" className="size-4" /> Download {render.format.toUpperCase()}
              </a>
            )}
            {mayCancel && <CancelRenderButton id={render.id} cancel={cancelRenderAction} />}
          </>
        }
      />
      <LiveRefresh active={running} label="Updating while the render runs" />
      <div className="mt-2 grid items-start gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-6">
          {render.error && (
            <section role="alert" aria-labelledby="render-error" className="rounded-lg border border-danger/40 bg-danger-soft p-5">
              <h2 id="render-error" className="flex items-center gap-2 text-base font-semibold text-danger">
                <TriangleAlert aria-hidden="true" className="size-5" /> The render failed
              </h2>
              <p className="mt-2 mb-4 text-sm text-gray-900">{render.error.message}</p>
              <Facts
                rows={[
                  ["Code", <code key="code" className="font-mono text-xs">{render.error.code}</code>],
                  ["Diagnostic", <code key="diag" className="font-mono text-xs">{render.error.diagnostic}</code>],
                ]}
              />
            </section>
          )}
          {render.result?.warnings?.length ? (
            <section aria-labelledby="render-warnings" className="rounded-lg border border-warning/40 bg-warning-soft p-5">
              <h2 id="render-warnings" className="flex items-center gap-2 text-base font-semibold text-warning">
                <TriangleAlert aria-hidden="true" className="size-5" /> The render succeeded with {render.result.warnings.length === 1 ? "a warning" : "warnings"}
              </h2>
              <ul className="mt-2 space-y-2 text-sm text-gray-900">
                {render.result.warnings.map((w) => (
                  <li key={w.diagnostic + w.message}>
                    <code className="font-mono text-xs">{w.diagnostic}</code>: {w.message}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <Section title="Request">
            <Facts rows={request} />
          </Section>
          {render.result && (
            <Section title="Result">
              <Facts
                rows={[
                  ["Pages", String(render.result.pageCount)],
                  ["File size", formatBytes(render.result.outputBytes)],
                  ["Render time", formatDuration(render.result.durationMs)],
                ]}
              />
            </Section>
          )}
        </div>
        <Section title="Timeline">
          <RenderTimeline render={render} />
        </Section>
      </div>
    </>
  );
}
