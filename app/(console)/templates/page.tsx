import { FileText, Search } from "lucide-react";
import Link from "@/components/ui/link";
import { CreateTemplateDialog } from "@/components/templates/create-template-dialog";
import { ExportImport } from "@/components/archives/export-import";
import { editorLabel, formatWhen } from "@/components/editor/format";
import { TemplateRowActions } from "@/components/templates/template-row-actions";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import { SearchForm } from "@/components/ui/search-form";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { can, requireConsole } from "@/lib/console";
import { isAppError } from "@/lib/errors";
import * as templates from "@/lib/templates";
import { workbookChoices } from "@/lib/templates/workbook";
import { createTemplateAction, deleteTemplateAction, renameTemplateAction } from "./actions";

export const metadata = { title: "Templates" };

const kindLabels = { component: "Component", handlebars: "Handlebars", workbook: "Workbook" } as const;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The workspace's templates, newest first, searchable by name, with who last edited each and what is published. */
export default async function TemplatesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  const params = await searchParams;
  const q = one(params.q)?.trim().slice(0, 120) || undefined;
  const canWrite = can(s, "template:write");
  const workbooks = canWrite ? await workbookChoices(s.ctx) : [];
  const dialog = canWrite ? <CreateTemplateDialog create={createTemplateAction} workbooks={workbooks} /> : undefined;
  let page: Awaited<ReturnType<typeof templates.listTemplates>> | undefined;
  let failure: string | undefined;
  try {
    page = await templates.listTemplates(s.ctx, { limit: 25, cursor: one(params.cursor), q });
  } catch (e) {
    if (!isAppError(e)) throw e;
    failure = e.message;
  }

  return (
    <>
      <PageHeader
        title="Templates"
        description="Component templates lay out components as JSON bound to the data; Handlebars templates are HTML with partials, helpers and scripts; workbook templates fill an Excel workbook. Each renders with the data a render sends."
        actions={
          <div className="flex flex-wrap gap-2">
            <ExportImport folderId={null} canExport={can(s, "asset:manage")} canWrite={canWrite && can(s, "asset:manage")} />
            {dialog}
          </div>
        }
      />
      <SearchForm action="/templates" label="Search templates by name" defaultValue={q} className="mb-4" />
      {failure !== undefined ? (
        <div role="alert" className="rounded-lg border border-danger/40 bg-danger-soft p-4 text-sm text-danger">
          {failure}{" "}
          <Link href="/templates" className="font-medium underline">
            Show all templates
          </Link>
        </div>
      ) : page!.items.length === 0 ? (
        q ? (
          <EmptyState icon={Search} title={`No template named like “${q}”`} text="Try another part of the name." action={<Link href="/templates" className={buttonClasses("secondary")}>Clear search</Link>} />
        ) : (
          <EmptyState
            icon={FileText}
            title="No templates yet"
            text={canWrite ? "Create a template, lay it out in the editor and render it with your data through the API." : "Nobody has made a template in this workspace yet."}
            action={dialog}
          />
        )
      ) : (
        <>
          <Table label="Templates">
            <THead>
              <TRow>
                <TH>Name</TH>
                <TH>Kind</TH>
                <TH>Last edited</TH>
                <TH>Published</TH>
                {canWrite && (
                  <TH>
                    <span className="sr-only">Actions</span>
                  </TH>
                )}
              </TRow>
            </THead>
            <TBody>
              {page!.items.map((t) => (
                <TRow key={t.id}>
                  <TCell className="max-w-xs">
                    <Link href={`/templates/${t.id}`} className="block truncate font-medium text-accent hover:underline">
                      {t.name}
                    </Link>
                  </TCell>
                  <TCell className="whitespace-nowrap text-gray-700">{kindLabels[t.kind]}</TCell>
                  <TCell className="text-gray-700">
                    {t.lastEditedAt ? (
                      <>
                        <time dateTime={t.lastEditedAt} className="whitespace-nowrap">
                          {formatWhen(t.lastEditedAt)}
                        </time>
                        <span className="block text-xs text-gray-600">by {editorLabel(t.lastEditedBy)}</span>
                      </>
                    ) : (
                      "—"
                    )}
                  </TCell>
                  <TCell>{t.publishedVersion ? <Badge tone="success">Version {t.publishedVersion}</Badge> : <Badge>Draft only</Badge>}</TCell>
                  {canWrite && (
                    <TCell className="w-12 text-right">
                      <TemplateRowActions id={t.id} name={t.name} rename={renameTemplateAction} remove={deleteTemplateAction} />
                    </TCell>
                  )}
                </TRow>
              ))}
            </TBody>
          </Table>
          <Pager basePath="/templates" searchParams={params} nextCursor={page!.nextCursor} />
        </>
      )}
    </>
  );
}
