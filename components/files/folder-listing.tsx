// FolderListing: one folder's contents as a table: folders, templates and files, each with its
// kind, size and last change, and (for roles that may write) rename, move and delete.
import { FileText, Folder } from "lucide-react";
import Link from "@/components/ui/link";
import { formatBytes, formatDateTime } from "@/components/format";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { fileIcon, fileKindLabel } from "./file-kind";
import { ItemActions, type ItemVerbs } from "./item-actions";

export type ListingRow = {
  type: "folder" | "template" | "file";
  id: string;
  name: string;
  path: string;
  updatedAt: string;
  kind?: "text" | "asset";
  mediaType?: string;
  size?: number;
};

const hrefOf = (r: ListingRow) => (r.type === "folder" ? `/files?folder=${r.id}` : r.type === "template" ? `/templates/${r.id}` : `/files/${r.id}`);

export function FolderListing({ label, rows, canWrite, folders, verbs }: { label: string; rows: ListingRow[]; canWrite: boolean; folders: { id: string; path: string }[]; verbs: ItemVerbs }) {
  return (
    <Table label={label}>
      <THead>
        <TRow>
          <TH>Name</TH>
          <TH>Kind</TH>
          <TH className="text-right">Size</TH>
          <TH>Changed</TH>
          {canWrite && (
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          )}
        </TRow>
      </THead>
      <TBody>
        {rows.map((r) => {
          const Icon = r.type === "folder" ? Folder : r.type === "template" ? FileText : fileIcon(r.mediaType ?? "");
          return (
            <TRow key={r.id}>
              <TCell className="max-w-xs">
                <Link href={hrefOf(r)} className="flex min-w-0 items-center gap-2 font-medium text-accent hover:underline">
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
                  <span className="truncate">{r.name}</span>
                </Link>
              </TCell>
              <TCell className="whitespace-nowrap text-gray-700">{r.type === "folder" ? "Folder" : r.type === "template" ? "Template" : fileKindLabel(r.mediaType ?? "", r.kind ?? "text")}</TCell>
              <TCell className="text-right whitespace-nowrap text-gray-700">{r.size === undefined ? "—" : formatBytes(r.size)}</TCell>
              <TCell className="whitespace-nowrap text-gray-700">
                <time dateTime={r.updatedAt}>{formatDateTime(r.updatedAt)}</time>
              </TCell>
              {canWrite && (
                <TCell className="w-12 text-right">
                  <ItemActions item={{ type: r.type, id: r.id, name: r.name, path: r.path }} folders={folders} {...verbs} />
                </TCell>
              )}
            </TRow>
          );
        })}
      </TBody>
    </Table>
  );
}
