import { Building2, SearchX } from "lucide-react";
import Link from "@/components/ui/link";
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
import { warnedWorkers } from "@/lib/workers";
import { listPlatformWorkspaces, PlatformWorkspacesQuery } from "@/lib/workspaces";
import { updatePlatformWorkspaceAction } from "./actions";

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
  // Workers rendering short of the full containment (README, "Renderer sandbox"): said here too,
  // not only in a log line or a health port an administrator may never look at.
  const warned = await warnedWorkers(s.ctx);
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
      {warned.length > 0 && (
        <section role="alert" aria-labelledby="renderer-containment" className="mb-6 rounded-lg border border-danger/40 bg-danger-soft p-4 text-sm text-danger">
          <h2 id="renderer-containment" className="mb-2 font-semibold">
            {warned.length === 1 ? "A worker renders" : `${warned.length} workers render`} without the full renderer sandbox
          </h2>
          <ul className="space-y-2">
            {warned.map((w) => (
              <li key={w.id}>
                <span className="font-mono">{w.id}</span>
                <ul className="ml-4 list-disc">
                  {w.warnings.map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}
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
          <WorkspacesTable rows={rows} update={updatePlatformWorkspaceAction} />
          <Pager basePath="/platform" searchParams={params} nextCursor={nextCursor} />
        </>
      )}
    </>
  );
}
