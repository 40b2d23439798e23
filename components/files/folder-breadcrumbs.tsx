// FolderBreadcrumbs: where the folder browser is: Files / brand / letters, each part a link but the last.
import { ChevronRight } from "lucide-react";
import Link from "@/components/ui/link";

export function FolderBreadcrumbs({ trail, file }: { trail: { id: string; name: string }[]; file?: string }) {
  if (trail.length === 0 && file === undefined) return null; // the top level: the page's heading says where
  const parts = [{ href: "/files", name: "Files" }, ...trail.map((t) => ({ href: `/files?folder=${t.id}`, name: t.name }))];
  const last = file ?? (trail.length ? parts.pop()!.name : undefined);
  return (
    <nav aria-label="Folder path" className="mb-4 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-gray-700">
        {parts.map((p, i) => (
          <li key={p.href} className="flex min-w-0 items-center gap-1">
            {i > 0 && <ChevronRight aria-hidden="true" className="size-3.5 shrink-0 text-gray-400" />}
            <Link href={p.href} className="max-w-[16rem] truncate text-accent hover:underline">
              {p.name}
            </Link>
          </li>
        ))}
        {last !== undefined && (
          <li className="flex min-w-0 items-center gap-1">
            <ChevronRight aria-hidden="true" className="size-3.5 shrink-0 text-gray-400" />
            <span aria-current="page" className="max-w-[16rem] truncate font-medium text-gray-900">
              {last}
            </span>
          </li>
        )}
      </ol>
    </nav>
  );
}
