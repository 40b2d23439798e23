import { ScrollText, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { AuditTable } from "@/components/audit/audit-table";
import { ANY, QueryFilters } from "@/components/filters/query-filters";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import * as audit from "@/lib/audit";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import { AppError, fromZodError } from "@/lib/errors";

export const metadata: Metadata = { title: "Audit log" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Who did what in the workspace, newest first, filtered by actor and action. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/audit");
  requireScopeOrRefuse(s, "audit:read");
  const params = await searchParams;
  const actorId = one(params.actorId);
  const action = one(params.action);
  const filtered = actorId !== undefined || action !== undefined;

  let page: Awaited<ReturnType<typeof audit.listAuditEvents>> | undefined;
  let error: string | undefined;
  const query = audit.AuditListQuery.safeParse({ actorId, action, cursor: one(params.cursor) });
  try {
    if (!query.success) throw fromZodError(query.error);
    page = await audit.listAuditEvents(s.ctx, query.data);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    error = e.message;
  }
  const [choices, actors] = await Promise.all([audit.auditFilterChoices(s.ctx), audit.describeActors(s.ctx, page?.items.map((e) => e.actor) ?? [])]);
  // A filter from the address that the choices lack (an actor of an older page) still shows as chosen.
  const actorOptions = [
    { value: ANY, label: "Everyone" },
    ...choices.actors.map((a) => ({ value: a.id, label: a.detail && a.type !== "user" ? `${a.label} (${a.detail})` : a.label })),
    ...(actorId && !choices.actors.some((a) => a.id === actorId) ? [{ value: actorId, label: actorId }] : []),
  ];
  const actionOptions = [
    { value: ANY, label: "All actions" },
    ...choices.actions.map((a) => ({ value: a, label: a })),
    ...(action && !choices.actions.includes(action) ? [{ value: action, label: action }] : []),
  ];

  return (
    <>
      <PageHeader title="Audit log" description={`Who changed what in ${s.workspace.name}: people, API keys and the system, newest first.`} />
      <QueryFilters
        basePath="/audit"
        filters={[
          { name: "actorId", label: "Actor", value: actorId, options: actorOptions },
          { name: "action", label: "Action", value: action, options: actionOptions },
        ]}
      />
      {error !== undefined ? (
        <EmptyState
          icon={SearchX}
          title="This list cannot be shown"
          text={error}
          action={
            <Link href="/audit" className={buttonClasses("secondary")}>
              Show all events
            </Link>
          }
        />
      ) : page!.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title="No events match these filters"
            text="Choose another actor or action, or clear the filters."
            action={
              <Link href="/audit" className={buttonClasses("secondary")}>
                Clear filters
              </Link>
            }
          />
        ) : (
          <EmptyState icon={ScrollText} title="Nothing recorded yet" text="Changes to keys, people, templates and the workspace appear here as they happen." />
        )
      ) : (
        <>
          <AuditTable items={page!.items} actors={actors} />
          <Pager basePath="/audit" searchParams={params} nextCursor={page!.nextCursor} />
        </>
      )}
    </>
  );
}
