// Pager: Previous/Next links over a cursor-paged list (the API's `nextCursor`). The cursors of the
// pages before are kept in the `trail` query parameter, so Previous works without the API paging
// backwards. <Pager basePath="/renders" searchParams={await searchParams} nextCursor={page.nextCursor} />
import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "@/components/ui/link";
import { buttonClasses } from "./button";
import { cn } from "./cn";

export type SearchParams = Record<string, string | string[] | undefined>;

/** "~" stands for the first page (no cursor); base64url cursors never contain "~" or ".". */
const FIRST = "~";
const MAX_TRAIL = 50;

function hrefWith(basePath: string, params: SearchParams, cursor: string | undefined, trail: string[]) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (k === "cursor" || k === "trail" || v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  }
  if (cursor) q.set("cursor", cursor);
  if (trail.length) q.set("trail", trail.join("."));
  const s = q.toString();
  return s ? `${basePath}?${s}` : basePath;
}

export function Pager({ basePath, searchParams, nextCursor, className }: { basePath: string; searchParams: SearchParams; nextCursor?: string; className?: string }) {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const cursor = one(searchParams.cursor);
  const trail = (one(searchParams.trail) ?? "").split(".").filter(Boolean).slice(-MAX_TRAIL);
  const hasPrevious = cursor !== undefined;
  const previous = hasPrevious ? hrefWith(basePath, searchParams, trail.at(-1) === FIRST ? undefined : trail.at(-1), trail.slice(0, -1)) : undefined;
  const next = nextCursor ? hrefWith(basePath, searchParams, nextCursor, [...trail, cursor ?? FIRST].slice(-MAX_TRAIL)) : undefined;
  if (!previous && !next) return null;
  const disabled = "pointer-events-none opacity-50";
  return (
    <nav aria-label="Pages" className={cn("mt-4 flex justify-between gap-2", className)}>
      {previous ? (
        <Link href={previous} className={buttonClasses("secondary", "sm")} rel="prev">
          <ChevronLeft aria-hidden="true" className="size-4" /> Previous
        </Link>
      ) : (
        <span className={cn(buttonClasses("secondary", "sm"), disabled)} aria-disabled="true">
          <ChevronLeft aria-hidden="true" className="size-4" /> Previous
        </span>
      )}
      {next ? (
        <Link href={next} className={buttonClasses("secondary", "sm")} rel="next">
          Next <ChevronRight aria-hidden="true" className="size-4" />
        </Link>
      ) : (
        <span className={cn(buttonClasses("secondary", "sm"), disabled)} aria-disabled="true">
          Next <ChevronRight aria-hidden="true" className="size-4" />
        </span>
      )}
    </nav>
  );
}
