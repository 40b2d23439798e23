import { notFound } from "next/navigation";
import { FileEditor } from "@/components/files/file-editor";
import { fileKindLabel } from "@/components/files/file-kind";
import { FileUsages } from "@/components/files/file-usages";
import { FolderBreadcrumbs } from "@/components/files/folder-breadcrumbs";
import { formatBytes, formatDateTime } from "@/components/format";
import { can, requireConsole, roleLabels } from "@/lib/console";
import { isAppError } from "@/lib/errors";
import * as files from "@/lib/workspace-files";

export const metadata = { title: "File" };

/**
 * One workspace file: a text file in the editor (saved through /v1 with the session, where the
 * role's scopes are checked), an uploaded one as its details; with who uses it.
 */
export default async function FilePage({ params }: { params: Promise<{ id: string }> }) {
  const s = await requireConsole();
  const { id } = await params;
  let f: files.WorkspaceFile;
  try {
    f = await files.getFile(s.ctx, id);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const [trail, usages] = await Promise.all([f.folderId ? files.folderTrail(s.ctx, f.folderId) : [], files.listFileUsages(s.ctx, id)]);
  return (
    <>
      <FolderBreadcrumbs trail={trail} file={f.name} />
      {f.kind === "text" ? (
        <FileEditor
          file={{ id: f.id, name: f.name, path: f.path, mediaType: f.mediaType, content: f.content ?? "", revision: f.revision, updatedAt: f.updatedAt }}
          canWrite={can(s, "template:write")}
          role={roleLabels[s.role]}
        />
      ) : (
        <div className="mb-4">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-gray-900">{f.name}</h1>
          <dl className="mt-4 grid max-w-xl grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-gray-600">Kind</dt>
            <dd className="text-gray-900">{fileKindLabel(f.mediaType, f.kind)} (uploaded file)</dd>
            <dt className="text-gray-600">Media type</dt>
            <dd className="font-mono text-gray-900">{f.mediaType}</dd>
            <dt className="text-gray-600">Size</dt>
            <dd className="text-gray-900">{formatBytes(f.size)}</dd>
            <dt className="text-gray-600">Path</dt>
            <dd className="font-mono break-all text-gray-900">{f.path}</dd>
            <dt className="text-gray-600">Asset</dt>
            <dd className="font-mono break-all text-gray-900">{f.assetId}</dd>
            <dt className="text-gray-600">Changed</dt>
            <dd className="text-gray-900">
              <time dateTime={f.updatedAt}>{formatDateTime(f.updatedAt)}</time> (revision {f.revision})
            </dd>
          </dl>
        </div>
      )}
      <div className="mt-4">
        <FileUsages items={usages.items} />
      </div>
    </>
  );
}
