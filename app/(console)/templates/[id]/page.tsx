import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { HandlebarsEditor } from "@/components/templates/handlebars-editor";
import { TemplateEditor } from "@/components/templates/template-editor";
import { can, requireConsole, roleLabels } from "@/lib/console";
import { config } from "@/lib/config";
import { isAppError } from "@/lib/errors";
import * as templates from "@/lib/templates";
import { stylesheetChoices } from "@/lib/templates/editor-files";
import type { Content } from "@/lib/templates/editor-tabs";
import type { HbsContent } from "@/lib/templates/hbs-editor-tabs";
import { registerAssetAction } from "../../assets/actions";
import { imageChoicesAction, renderVersionAction, workbookPlaceholdersAction } from "./actions";
import { WorkbookEditor, type WorkbookDraft } from "@/components/templates/workbook-editor";
import { workbookChoices, workbookPlaceholders } from "@/lib/templates/workbook";

export const metadata = { title: "Template editor" };

/**
 * The editor of one template: the draft read with the same verb as GET /v1/templates/{id}; saves,
 * previews and publishing go through /v1 with the session, where the role's scopes are checked; a real
 * render of a published version goes through renderVersionAction (the verb of POST /v1/renders).
 */
export default async function TemplateEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const s = await requireConsole();
  const { id } = await params;
  let t: templates.Template;
  let files: Awaited<ReturnType<typeof stylesheetChoices>>;
  try {
    [t, files] = await Promise.all([templates.getTemplate(s.ctx, id), stylesheetChoices(s.ctx, id)]);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const breadcrumb = (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <Link href="/templates" className="text-accent hover:underline">
        Templates
      </Link>
    </nav>
  );
  const shared = {
    loadImages: imageChoicesAction,
    registerAsset: can(s, "asset:manage") || can(s, "template:content") ? registerAssetAction : undefined,
    canWrite: can(s, "template:write"),
    canContent: can(s, "template:write") || can(s, "template:content"),
    canPublish: can(s, "template:publish"),
    role: roleLabels[s.role],
    publicUrl: config().PUBLIC_URL,
    renderVersion: can(s, "render:create") ? renderVersionAction : undefined,
  };
  const common = {
    id: t.id,
    name: t.name,
    draftRevision: t.draftRevision,
    lastEditedAt: t.lastEditedAt,
    lastEditedBy: t.lastEditedBy,
    publishedVersion: t.publishedVersion,
    folderPath: files.folderPath,
    stylesheetChoices: files.stylesheets,
  };
  if (t.kind === "workbook") {
    const draft = t.draft as WorkbookDraft;
    const [choices, placeholders] = await Promise.all([
      workbookChoices(s.ctx),
      workbookPlaceholders(s.ctx, draft.workbook.assetId).catch((e: unknown) => {
        if (isAppError(e)) return { error: e.message };
        throw e;
      }),
    ]);
    return (
      <>
        {breadcrumb}
        <WorkbookEditor
          template={{ ...common, draft }}
          workbooks={choices}
          initialPlaceholders={placeholders}
          loadPlaceholders={workbookPlaceholdersAction}
          canWrite={shared.canWrite}
          canPublish={shared.canPublish}
          role={shared.role}
          publicUrl={shared.publicUrl}
        />
      </>
    );
  }
  if (t.kind === "handlebars") {
    return (
      <>
        {breadcrumb}
        <HandlebarsEditor template={{ ...common, draft: t.draft as HbsContent }} {...shared} />
      </>
    );
  }
  return (
    <>
      {breadcrumb}
      <TemplateEditor template={{ ...common, draft: t.draft as Content }} {...shared} />
    </>
  );
}
