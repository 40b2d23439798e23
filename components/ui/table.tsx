// Table: a data table that scrolls sideways inside its own box at narrow widths (the page never
// does). <Table label="API keys"><THead><TRow><TH>Name</TH></TRow></THead><TBody><TRow><TCell/></TRow></TBody></Table>
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export function Table({ label, children, className }: { label?: string; children: ReactNode; className?: string }) {
  return (
    // why tabIndex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
    // why relative: an absolutely positioned descendant (an sr-only label in a cell) is clipped by the
    // scroller only if the scroller is its containing block; otherwise it widens the whole page.
    <div className={cn("relative overflow-x-auto rounded-lg border border-gray-200 bg-white", className)} tabIndex={0} role="region" aria-label={label}>
      <table className="w-full border-collapse text-left text-sm">{children}</table>
    </div>
  );
}

export function THead({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("border-b border-gray-200 bg-gray-50 text-gray-700", className)} {...props} />;
}

export function TBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-gray-200", className)} {...props} />;
}

export function TRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("hover:bg-gray-50", className)} {...props} />;
}

export function TH({ className, ...props }: ComponentProps<"th">) {
  return <th scope="col" className={cn("px-4 py-2.5 font-medium whitespace-nowrap", className)} {...props} />;
}

export function TCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-4 py-3 align-middle text-gray-900", className)} {...props} />;
}
