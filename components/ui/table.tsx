// Table: a data table that scrolls sideways inside its own box at narrow widths (the page never
// does), and shows that it does (table-scroller.tsx). Its columns fit at 1280 px. <Table label="API keys"><THead><TRow><TH>Name</TH></TRow></THead><TBody><TRow><TCell/></TRow></TBody></Table>
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";
import { TableScroller } from "./table-scroller";

export function Table({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <TableScroller label={label} className={className}>
      <table className="w-full border-collapse text-left text-sm">{children}</table>
    </TableScroller>
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
  return <th scope="col" className={cn("px-3 py-2.5 font-medium whitespace-nowrap first:pl-4 last:pr-4", className)} {...props} />;
}

export function TCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-3 align-middle text-gray-900 first:pl-4 last:pr-4", className)} {...props} />;
}
