// QueryFilters: select boxes that filter a paged list through its address (?state=failed), so a
// filtered list can be bookmarked and shared, the server component reads the filter, and paging
// starts again from the first page whenever a filter changes. Shows progress while the new list loads.
"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Label } from "@/components/ui/label";
import { Select, type SelectOption } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";

/** The option that means "no filter"; Radix select values cannot be empty. */
export const ANY = "any";

export type QueryFilter = { name: string; label: string; value?: string; options: readonly SelectOption[] };

export function QueryFilters({ basePath, filters }: { basePath: string; filters: readonly QueryFilter[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const apply = (name: string, value: string) => {
    const q = new URLSearchParams();
    for (const f of filters) {
      const v = f.name === name ? value : f.value;
      if (v && v !== ANY) q.set(f.name, v);
    }
    const s = q.toString();
    startTransition(() => router.push(s ? `${basePath}?${s}` : basePath));
  };
  return (
    <div role="group" aria-label="Filters" className="mb-4 flex flex-wrap items-end gap-3">
      {filters.map((f) => (
        <div key={f.name} className="w-full space-y-1.5 sm:w-56">
          <Label htmlFor={`filter-${f.name}`}>{f.label}</Label>
          <Select id={`filter-${f.name}`} value={f.value ?? ANY} options={f.options} onValueChange={(v) => apply(f.name, v)} />
        </div>
      ))}
      <div className="flex h-10 items-center" aria-live="polite">
        {pending && (
          <span className="inline-flex items-center gap-2 text-sm text-gray-600">
            <Spinner /> Loading…
          </span>
        )}
      </div>
    </div>
  );
}
