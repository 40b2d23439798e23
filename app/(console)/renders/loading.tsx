import { Skeleton } from "@/components/ui/skeleton";

/** The renders list while it loads: the header, the filters and rows of the table's size. */
export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading renders">
      <Skeleton className="mb-2 h-8 w-40" />
      <Skeleton className="mb-6 h-5 w-96 max-w-full" />
      <div className="mb-4 flex gap-3">
        <Skeleton className="h-16 w-56" />
        <Skeleton className="h-16 w-56" />
      </div>
      <div className="mt-9 space-y-2">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-11 w-full" />
        ))}
      </div>
    </div>
  );
}
