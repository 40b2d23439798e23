import { Building2, SearchX } from "lucide-react";
import Link from "next/link";
import type { Metadata } from "next";
import { WorkspacesTable, type PlatformRow } from "@/components/platform/workspaces-table";
import { buttonClasses } from "@/components/ui/button";
import { DateRangeForm } from "@/components/ui/date-range-form";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import { SearchForm } from "@/components/ui/search-form";
import { requireConsole, requireSectionOrRefuse } from "@/lib/console";
import { AppError, fromZodError } from "@/lib/errors";
import { UsageQuery, usageOfWorkspaces } from "@/lib/usage";
import { listPlatformWorkspaces, PlatformWorkspacesQuery } from "@/lib/workspaces";

export const metadata: Metadata = { title: "Platform" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const PAGE_SIZE = 25;

/**
 * Platform administrators' page: every workspace (paged, by id; or those a search by name or id
 * finds) with its allowances, suspended state and usage over a range (the current UTC month by
 * default); change allowances and plan, suspend and unsuspend. Anyone else gets the refusal (403),
 * whatever their workspace role.
 */
export default async function PlatformPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/platform");
  const params = await searchParams;
  const from = one(params.from);
  const to = one(params.to);
  const cursor = one(params.cursor);
  const q = one(params.q)?.trim() || undefined;
  let rows: PlatformRow[] = [];
  let nextCursor: string | undefined;
  let range: { from: string; to: string } | undefined;
  let error: string | undefined;
  try {
    const list = PlatformWorkspacesQuery.safeParse({ q, cursor, limit: PAGE_SIZE });
    if (!list.success) throw fromZodError(list.error);
    const when = UsageQuery.safeParse({ from, to });
    if (!when.success) throw fromZodError(when.error);
    const page = await listPlatformWorkspaces(s.ctx, list.data);
    const usage = await usageOfWorkspaces(s.ctx, page.items.map((w) => w.id), when.data);
    rows = page.items.map((w) => {
      const u = usage.byId.get(w.id)!;
      return { ...w, usage: { rendersSucceeded: u.rendersSucceeded, rendersFailed: u.rendersFailed, pages: u.pages, outputBytes: u.outputBytes } };
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
      <h2 className="mb-3 text-lg font-semibold text-gray-900">Workspaces</h2>
      <div className="mb-4 flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <SearchForm
          action="/platform"
          label="Find workspaces by name or id"
          defaultValue={q}
          placeholder="Name or workspace id"
          submitLabel="Find"
          keep={{ from, to }}
          className="flex-1 items-end"
        />
        <DateRangeForm action="/platform" from={range?.from ?? from} to={range?.to ?? to} fromLabel="Usage from" keep={{ q }} />
      </div>
      {error !== undefined ? (
        <EmptyState icon={SearchX} title="This page cannot be shown" text={error} />
      ) : rows.length === 0 && q !== undefined ? (
        <EmptyState
          icon={SearchX}
          title="No workspace found"
          text={`No workspace has the id ${JSON.stringify(q)} or a name containing it.`}
          action={
            <Link href="/platform" className={buttonClasses("secondary")}>
              Show every workspace
            </Link>
          }
        />
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
