import { BarChart3, SearchX } from "lucide-react";
import type { Metadata } from "next";
import { formatBytes } from "@/components/format";
import { LimitMeter } from "@/components/usage/limit-meter";
import { UsageDays } from "@/components/usage/usage-days";
import { DateRangeForm } from "@/components/ui/date-range-form";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import type { SearchParams } from "@/components/ui/pager";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import { AppError, fromZodError } from "@/lib/errors";
import { getUsage, UsageQuery, type Usage } from "@/lib/usage";
import { renderLimitsInUse } from "@/lib/workspaces";

export const metadata: Metadata = { title: "Usage" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** The workspace's render limits with what is in use now, and its usage by day over a chosen range. */
export default async function UsagePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/usage");
  requireScopeOrRefuse(s, "usage:read");
  const params = await searchParams;
  const from = one(params.from);
  const to = one(params.to);
  const limits = await renderLimitsInUse(s.ctx);
  let usage: Usage | undefined;
  let error: string | undefined;
  try {
    const q = UsageQuery.safeParse({ from, to });
    if (!q.success) throw fromZodError(q.error);
    usage = await getUsage(s.ctx, q.data);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    error = e.message;
  }

  return (
    <>
      <PageHeader title="Usage" description={`What ${s.workspace.name} renders, and how much of its allowances it uses now.`} />
      <section aria-labelledby="limits-heading" className="mb-8">
        <h2 id="limits-heading" className="mb-3 text-lg font-semibold text-gray-900">
          Render limits
        </h2>
        <div className="grid gap-3 sm:grid-cols-2">
          <LimitMeter label="Active renders" used={limits.activeRenders} max={limits.maxActiveRenders} hint="Queued or processing now" />
          <LimitMeter label="Renders in the last minute" used={limits.rendersLastMinute} max={limits.rendersPerMinute} hint="Created in the last 60 seconds" />
          <LimitMeter label="Documents this month" used={limits.documentsThisMonth} max={limits.documentsPerMonth} hint="Restarts on the 1st (UTC); test renders do not count" />
          <LimitMeter label="File storage" used={limits.storageBytes} max={limits.maxStorageBytes} format={formatBytes} />
          <LimitMeter label="Test renders today" used={limits.testRendersToday} max={limits.testRendersPerDay} hint="Restarts at 00:00 UTC" />
        </div>
      </section>
      <section aria-labelledby="usage-heading">
        <div className="mb-3 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <h2 id="usage-heading" className="text-lg font-semibold text-gray-900">
            Usage by day
          </h2>
          <DateRangeForm action="/usage" from={usage?.from ?? from} to={usage?.to ?? to} />
        </div>
        {error !== undefined ? (
          <EmptyState icon={SearchX} title="This range cannot be shown" text={error} />
        ) : usage!.days.length === 0 ? (
          <EmptyState icon={BarChart3} title="No usage in this range" text={`Nothing was rendered from ${usage!.from} to ${usage!.to}.`} />
        ) : (
          <>
            <p className="mb-3 text-sm text-gray-600">
              {usage!.from} to {usage!.to} (UTC, both included). A render counts on the day it ends. Test renders are included in every count and shown
              again apart (amber stripes in the charts). String renders and HTML previews create no render and use no allowance: they are counted
              apart, on the day they answer.
            </p>
            <UsageDays usage={usage!} />
          </>
        )}
      </section>
    </>
  );
}
