import { FolderOpen } from "lucide-react";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { FileActions } from "@/components/files/file-actions";
import { FolderBreadcrumbs } from "@/components/files/folder-breadcrumbs";
import { FolderListing, type ListingRow } from "@/components/files/folder-listing";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ExportImport } from "@/components/archives/export-import";
import { Pager, type SearchParams } from "@/components/ui/pager";
import { can, requireConsole, roleLabels } from "@/lib/console";
import { isAppError } from "@/lib/errors";
import * as templates from "@/lib/templates";
import * as files from "@/lib/workspace-files";
import { addAssetFileAction, createFolderAction, createStylesheetAction, deleteItemAction, moveItemAction, renameItemAction } from "./actions";

export const metadata = { title: "Files" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The workspace's folders and files: one folder at a time (`?folder=`, the root without it), with
 * its folders, templates and files; create, rename, move and delete for roles with template:write.
 */
export default async function FilesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  const params = await searchParams;
  const folderId = one(params.folder) || null;
  const canWrite = can(s, "template:write");
  const canUseAssets = canWrite && can(s, "asset:manage");

  let trail: { id: string; name: string }[] = [];
  try {
    if (folderId) trail = await files.folderTrail(s.ctx, folderId);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const filter = folderId ?? "root";
  let page: Awaited<ReturnType<typeof files.listFiles>>;
  try {
    page = await files.listFiles(s.ctx, { limit: 50, cursor: one(params.cursor), folderId: filter });
  } catch (e) {
    if (isAppError(e) && e.code === "BAD_REQUEST") page = await files.listFiles(s.ctx, { limit: 50, folderId: filter });
    else throw e;
  }
  const firstPage = one(params.cursor) === undefined;
  // Folders and templates are shown with the first page of files (a folder rarely holds more than 100 of each).
  const [folders, tpls, allFolders, assets] = await Promise.all([
    firstPage ? files.listFolders(s.ctx, { limit: 100, parentId: filter }) : { items: [] },
    firstPage ? templates.listTemplates(s.ctx, { limit: 100, folderId: filter }) : { items: [] },
    canWrite ? files.allFolders(s.ctx) : [],
    canUseAssets ? files.assetChoices(s.ctx) : [],
  ]);

  const here = trail.map((t) => t.name).join("/");
  const rows: ListingRow[] = [
    ...folders.items.map((f): ListingRow => ({ type: "folder", id: f.id, name: f.name, path: f.path, updatedAt: f.updatedAt })),
    ...tpls.items
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t): ListingRow => ({ type: "template", id: t.id, name: t.name, path: here ? `${here}/${t.name}` : t.name, updatedAt: t.updatedAt })),
    ...page.items.map((f): ListingRow => ({ type: "file", id: f.id, name: f.name, path: f.path, updatedAt: f.updatedAt, kind: f.kind, mediaType: f.mediaType, size: f.size })),
  ];
  const folderName = trail.at(-1)?.name;

  return (
    <>
      <PageHeader
        title="Files"
        description="Stylesheets and uploaded files for your templates, in folders. A template names its stylesheets by path from its own folder."
        actions={
          canWrite ? (
            <FileActions
              folderId={folderId}
              folderPath={here}
              assets={assets}
              canUseAssets={canUseAssets}
              createFolder={createFolderAction}
              createStylesheet={createStylesheetAction}
              addAssetFile={addAssetFileAction}
            />
          ) : undefined
        }
      />
      <FolderBreadcrumbs trail={trail} />
      {can(s, "asset:manage") && (
        <div className="mb-4">
          <ExportImport folderId={folderId} folderName={folderName} canExport canWrite={canWrite} />
        </div>
      )}
      {!canWrite && (
        <p className="mb-4 rounded-md border border-accent/30 bg-accent-soft px-4 py-3 text-sm text-gray-900">
          Your role ({roleLabels[s.role]}) can read these files; it cannot change them.
        </p>
      )}
      {rows.length === 0 ? (
        <EmptyState
          icon={FolderOpen}
          title={folderName ? `${folderName} is empty` : "No files yet"}
          text={
            canWrite
              ? "Make a folder, write a stylesheet, or add a font or image you uploaded. Templates in this folder name stylesheets here by their file name."
              : "Nobody has added files here yet."
          }
          action={
            folderName ? (
              <Link href={trail.length > 1 ? `/files?folder=${trail.at(-2)!.id}` : "/files"} className="text-sm font-medium text-accent hover:underline">
                Back to {trail.length > 1 ? trail.at(-2)!.name : "all files"}
              </Link>
            ) : undefined
          }
        />
      ) : (
        <>
          <FolderListing label={folderName ? `Contents of ${here}` : "Files at the top level"} rows={rows} canWrite={canWrite} folders={allFolders} verbs={{ rename: renameItemAction, move: moveItemAction, remove: deleteItemAction }} />
          <Pager basePath="/files" searchParams={params} nextCursor={page.nextCursor} />
        </>
      )}
    </>
  );
}
