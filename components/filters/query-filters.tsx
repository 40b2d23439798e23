// QueryFilters: select boxes that filter a paged list through its address (?state=failed), so a
// filtered list can be bookmarked and shared, the server component reads the filter, and paging
// starts again from the first page whenever a filter changes. Shows progress while the new list loads.
"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Label } from "@/components/ui/label";
import { Select, type SelectOption } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";

/** The option that means "no filter"; Radix select values cannot be empty. */
export const ANY = "any";

export type QueryFilter = { name: string; label: string; value?: string; options: readonly SelectOption[] };

export function QueryFilters({ basePath, filters }: { basePath: string; filters: readonly QueryFilter[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // why chosen values of its own: the filters' props change only once the new list has loaded, and a
  // second choice made meanwhile must keep the first (picking "All states" then "Test renders only"
  // quickly would otherwise bring the old state back). Reset whenever the server's values change.
  const fromServer = Object.fromEntries(filters.map((f) => [f.name, f.value ?? ANY]));
  const serverKey = JSON.stringify(fromServer);
  const [chosen, setChosen] = useState({ key: serverKey, values: fromServer });
  const values = chosen.key === serverKey ? chosen.values : fromServer;
  if (chosen.key !== serverKey) setChosen({ key: serverKey, values: fromServer });
  const apply = (name: string, value: string) => {
    const next = { ...values, [name]: value };
    setChosen({ key: serverKey, values: next });
    const q = new URLSearchParams();
    for (const f of filters) {
      const v = next[f.name];
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
          <Select id={`filter-${f.name}`} value={values[f.name] ?? ANY} options={f.options} onValueChange={(v) => apply(f.name, v)} />
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
