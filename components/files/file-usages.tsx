// FileUsages: who uses a workspace file now: template drafts naming it as a stylesheet and
// stylesheets naming it in url() or @import. A file with users cannot be deleted.
import Link from "@/components/ui/link";
import type { FileUsage } from "@/lib/workspace-files/schemas";

export function FileUsages({ items }: { items: FileUsage[] }) {
  return (
    <section aria-labelledby="file-usages" className="rounded-lg border border-gray-200 bg-white p-4">
      <h2 id="file-usages" className="text-base font-semibold text-gray-900">
        Used by
      </h2>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-gray-600">No template draft or stylesheet names this file. Published template versions keep their own copy.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm text-gray-900">
          {items.map((u, i) => (
            <li key={`${u.id}-${i}`}>
              <Link href={u.type === "template" ? `/templates/${u.id}` : `/files/${u.id}`} className="font-medium text-accent hover:underline">
                {u.type === "template" ? `Template ${u.name}` : u.name}
              </Link>{" "}
              <span className="text-gray-700">
                {u.as === "stylesheet" ? "as stylesheet" : u.as === "import" ? "in @import" : "in url()"} <code className="rounded bg-gray-100 px-1 text-xs">{u.reference}</code>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
