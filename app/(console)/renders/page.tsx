import { FileText, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { ANY, QueryFilters } from "@/components/filters/query-filters";
import { LiveRefresh } from "@/components/renders/live-refresh";
import { isRunning } from "@/components/renders/render-state-badge";
import { RendersTable } from "@/components/renders/renders-table";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import { can, requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import { AppError, fromZodError } from "@/lib/errors";
import * as renders from "@/lib/renders";
import { templateNames } from "@/lib/templates";

export const metadata: Metadata = { title: "Renders" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const stateOptions = [
  { value: ANY, label: "All states" },
  { value: "queued", label: "Queued" },
  { value: "processing", label: "Processing" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
];
const testOptions = [
  { value: ANY, label: "Test and live" },
  { value: "true", label: "Test renders only" },
  { value: "false", label: "Live renders only" },
];

// docs/api.md, GET /v1/renders: the editor's live previews are listed only when asked for.
const sourceOptions = [
  { value: ANY, label: "Without editor previews" },
  { value: "editorPreview", label: "Editor previews only" },
];

/** The workspace's renders, newest first, filtered by state and test flag; states change live while renders run. */
export default async function RendersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/renders");
  requireScopeOrRefuse(s, "render:read");
  const params = await searchParams;
  const state = one(params.state);
  const test = one(params.test);
  const batchId = one(params.batchId);
  const source = one(params.source);
  const filtered = state !== undefined || test !== undefined || batchId !== undefined || source !== undefined;

  let page: Awaited<ReturnType<typeof renders.listRenders>> | undefined;
  let error: string | undefined;
  const query = renders.RenderListQuery.safeParse({ state, test, batchId, source, cursor: one(params.cursor) });
  try {
    if (!query.success) throw fromZodError(query.error);
    page = await renders.listRenders(s.ctx, query.data);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    error = e.message;
  }
  const names = page && can(s, "template:read") ? await templateNames(s.ctx, page.items.flatMap((r) => (r.templateId ? [r.templateId] : []))) : new Map<string, string>();
  const running = page?.items.some(isRunning) ?? false;

  return (
    <>
      <PageHeader title="Renders" description="Every document rendered in this workspace in the last 30 days, newest first." />
      <QueryFilters
        basePath="/renders"
        filters={[
          { name: "state", label: "State", value: state, options: stateOptions },
          { name: "test", label: "Test flag", value: test, options: testOptions },
          { name: "source", label: "Editor previews", value: source, options: sourceOptions },
        ]}
      />
      {batchId !== undefined && (
        <p className="mb-4 text-sm text-gray-700">
          Showing the items of batch <code className="font-mono text-xs break-all">{batchId}</code>.{" "}
          <Link href={`/renders/batch/${encodeURIComponent(batchId)}`} className="font-medium text-accent underline-offset-2 hover:underline">
            Open the batch
          </Link>
        </p>
      )}
      <LiveRefresh active={running} />
      {error !== undefined ? (
        <EmptyState
          icon={SearchX}
          title="This list cannot be shown"
          text={error}
          action={
            <Link href="/renders" className={buttonClasses("secondary")}>
              Show all renders
            </Link>
          }
        />
      ) : page!.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title="No renders match these filters"
            text="Change the filters, or clear them to see every render."
            action={
              <Link href="/renders" className={buttonClasses("secondary")}>
                Clear filters
              </Link>
            }
          />
        ) : (
          <EmptyState
            icon={FileText}
            title="No renders yet"
            text="Renders made with the API or from a template's published version appear here, with their state, pages and time; the editor's previews are under the Editor previews filter."
            action={
              <Link href="/" className={buttonClasses("primary")}>
                Render your first document
              </Link>
            }
          />
        )
      ) : (
        <>
          <RendersTable items={page!.items} names={names} />
          <Pager basePath="/renders" searchParams={params} nextCursor={page!.nextCursor} />
        </>
      )}
    </>
  );
}
