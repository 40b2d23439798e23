import Link from "next/link";
import { notFound } from "next/navigation";
import { TemplateEditor } from "@/components/templates/template-editor";
import { can, requireConsole, roleLabels } from "@/lib/console";
import { config } from "@/lib/config";
import { isAppError } from "@/lib/errors";
import * as templates from "@/lib/templates";
import { stylesheetChoices } from "@/lib/templates/editor-files";
import type { Content } from "@/lib/templates/editor-tabs";
import { registerAssetAction } from "../../assets/actions";
import { imageChoicesAction, renderVersionAction } from "./actions";

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
  // why: the editor below edits component content; the Handlebars editor comes with its own change.
  if (t.kind === "handlebars") {
    return (
      <>
        {breadcrumb}
        <h1 className="text-2xl font-semibold tracking-tight break-words text-gray-900">{t.name}</h1>
        <p className="mt-2 max-w-prose text-sm">
          This is a Handlebars template (draft revision {t.draftRevision}). The console cannot edit Handlebars templates yet: change its draft with{" "}
          <code className="break-all">PUT /v1/templates/{t.id}/draft</code>, preview and publish it through the API.
        </p>
      </>
    );
  }
  return (
    <>
      {breadcrumb}
      <TemplateEditor
        template={{
          id: t.id,
          name: t.name,
          draft: t.draft as Content,
          draftRevision: t.draftRevision,
          lastEditedAt: t.lastEditedAt,
          lastEditedBy: t.lastEditedBy,
          publishedVersion: t.publishedVersion,
          folderPath: files.folderPath,
          stylesheetChoices: files.stylesheets,
        }}
        loadImages={imageChoicesAction}
        registerAsset={can(s, "asset:manage") || can(s, "template:content") ? registerAssetAction : undefined}
        canWrite={can(s, "template:write")}
        canContent={can(s, "template:write") || can(s, "template:content")}
        canPublish={can(s, "template:publish")}
        role={roleLabels[s.role]}
        publicUrl={config().PUBLIC_URL}
        renderVersion={can(s, "render:create") ? renderVersionAction : undefined}
      />
    </>
  );
}
