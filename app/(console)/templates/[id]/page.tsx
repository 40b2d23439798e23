import Link from "next/link";
import { notFound } from "next/navigation";
import { TemplateEditor } from "@/components/templates/template-editor";
import { can, requireConsole, roleLabels } from "@/lib/console";
import { isAppError } from "@/lib/errors";
import * as templates from "@/lib/templates";
import type { Content } from "@/lib/templates/editor-tabs";

export const metadata = { title: "Template editor" };

/**
 * The editor of one template: the draft read with the same verb as GET /v1/templates/{id}; saves,
 * previews and publishing go through /v1 with the session, where the role's scopes are checked.
 */
export default async function TemplateEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const s = await requireConsole();
  const { id } = await params;
  let t: templates.Template;
  try {
    t = await templates.getTemplate(s.ctx, id);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/templates" className="text-accent hover:underline">
          Templates
        </Link>
      </nav>
      <TemplateEditor
        template={{
          id: t.id,
          name: t.name,
          draft: t.draft as Content,
          draftRevision: t.draftRevision,
          lastEditedAt: t.lastEditedAt,
          lastEditedBy: t.lastEditedBy,
          publishedVersion: t.publishedVersion,
        }}
        canWrite={can(s, "template:write")}
        canPublish={can(s, "template:publish")}
        role={roleLabels[s.role]}
      />
    </>
  );
}
