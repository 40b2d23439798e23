import { Building2, SearchX } from "lucide-react";
import type { Metadata } from "next";
import { WorkspacesTable, type PlatformRow } from "@/components/platform/workspaces-table";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { controlClasses } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import { requireConsole, requireSectionOrRefuse } from "@/lib/console";
import { AppError, fromZodError } from "@/lib/errors";
import { platformUsage, PlatformUsageQuery, type WorkspaceUsage } from "@/lib/usage";
import { listPlatformWorkspaces } from "@/lib/workspaces";

export const metadata: Metadata = { title: "Platform" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const PAGE_SIZE = 25;

/**
 * Platform administrators' page: every workspace (paged, by id) with its allowances, suspended
 * state and usage over a range (the current UTC month by default); change allowances and plan,
 * suspend and unsuspend. Anyone else gets the refusal (403), whatever their workspace role.
 */
export default async function PlatformPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/platform");
  const params = await searchParams;
  const from = one(params.from);
  const to = one(params.to);
  const cursor = one(params.cursor);
  let rows: PlatformRow[] = [];
  let nextCursor: string | undefined;
  let range: { from: string; to: string } | undefined;
  let error: string | undefined;
  try {
    const q = PlatformUsageQuery.safeParse({ from, to, cursor, limit: PAGE_SIZE });
    if (!q.success) throw fromZodError(q.error);
    // why the same cursor and limit: both lists go by workspace id from the same cursor, and usage
    // rows are a subset of workspaces, so this page's workspaces with usage are all in the first PAGE_SIZE.
    const [page, usage] = await Promise.all([listPlatformWorkspaces(s.ctx, { limit: PAGE_SIZE, cursor: q.data.cursor }), platformUsage(s.ctx, q.data)]);
    const byId = new Map<string, WorkspaceUsage>(usage.items.map((u) => [u.workspaceId, u]));
    rows = page.items.map((w) => {
      const u = byId.get(w.id);
      return { ...w, usage: { rendersSucceeded: u?.rendersSucceeded ?? 0, rendersFailed: u?.rendersFailed ?? 0, pages: u?.pages ?? 0, outputBytes: u?.outputBytes ?? 0 } };
    });
    nextCursor = page.nextCursor;
    range = { from: usage.from, to: usage.to };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    error = e.message;
  }

  return (
    <>
      <PageHeader title="Platform" description="Every workspace of this Folio installation: its allowances, whether it is suspended, and what it rendered. Every change is recorded in the workspace's audit log." />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 className="text-lg font-semibold text-gray-900">Workspaces</h2>
        <form method="get" action="/platform" className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm text-gray-700">
            Usage from
            <input type="date" name="from" defaultValue={range?.from ?? from} className={controlClasses} />
          </label>
          <label className="flex flex-col gap-1 text-sm text-gray-700">
            To
            <input type="date" name="to" defaultValue={range?.to ?? to} className={controlClasses} />
          </label>
          <button type="submit" className={buttonClasses("secondary")}>
            Show
          </button>
        </form>
      </div>
      {error !== undefined ? (
        <EmptyState icon={SearchX} title="This page cannot be shown" text={error} />
      ) : rows.length === 0 ? (
        <EmptyState icon={Building2} title="No workspaces" text="Workspaces made with the admin CLI or at first start appear here." />
      ) : (
        <>
          <p className="mb-3 text-sm text-gray-600">
            Usage from {range!.from} to {range!.to} (UTC, both included). A render counts on the day it ends.
          </p>
          <WorkspacesTable rows={rows} />
          <Pager basePath="/platform" searchParams={params} nextCursor={nextCursor} />
        </>
      )}
    </>
  );
}
