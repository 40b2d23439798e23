// TableScroller: the box a Table scrolls sideways in. It shows that it scrolls: a shade on each edge
// with more columns behind it, and, while it scrolls, a line under it saying so (the region's
// description for a screen reader). It is a keyboard stop with the table's name, so arrow keys scroll it.
"use client";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cn } from "./cn";

export function TableScroller({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => {
      const max = el.scrollWidth - el.clientWidth;
      const next = { left: max > 1 && el.scrollLeft > 1, right: max > 1 && el.scrollLeft < max - 1 };
      setMore((m) => (m.left === next.left && m.right === next.right ? m : next));
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(el);
    if (el.firstElementChild) resized.observe(el.firstElementChild);
    return () => {
      el.removeEventListener("scroll", update);
      resized.disconnect();
    };
  }, []);
  const scrolls = more.left || more.right;
  return (
    <div className="flex flex-col gap-1.5">
      <div className={cn("relative rounded-lg border border-gray-200 bg-white", className)}>
        {/* why tabIndex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
            why relative: an absolutely positioned descendant (an sr-only label in a cell) is clipped by the
            scroller only if the scroller is its containing block; otherwise it widens the whole page. */}
        <div
          ref={box}
          className="relative overflow-x-auto rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          tabIndex={0}
          role="region"
          aria-label={label}
          aria-describedby={scrolls ? hintId : undefined}
        >
          {children}
        </div>
        <div
          aria-hidden="true"
          data-edge="left"
          className={cn("pointer-events-none absolute inset-y-0 left-0 w-8 rounded-l-lg bg-linear-to-r from-gray-900/15 to-transparent transition-opacity", more.left ? "opacity-100" : "opacity-0")}
        />
        <div
          aria-hidden="true"
          data-edge="right"
          className={cn("pointer-events-none absolute inset-y-0 right-0 w-8 rounded-r-lg bg-linear-to-l from-gray-900/15 to-transparent transition-opacity", more.right ? "opacity-100" : "opacity-0")}
        />
      </div>
      {scrolls && (
        <p id={hintId} className="text-xs text-gray-600">
          {more.right ? "More columns to the right: scroll the table sideways." : "More columns to the left: scroll the table sideways."}
        </p>
      )}
    </div>
  );
}
