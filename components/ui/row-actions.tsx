// Row actions: the icon buttons at the end of a table row, and their column's header (named for
// screen readers only).
// <THead><TRow><TH>Name</TH><ActionsHead /></TRow></THead>
// <TCell><RowActions><IconAction icon={Trash2} label={`Delete ${name}`} title="Delete" danger /></RowActions></TCell>
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "./button";
import { cn } from "./cn";
import { TH } from "./table";

export function ActionsHead() {
  return (
    <TH>
      <span className="sr-only">Actions</span>
    </TH>
  );
}

export function RowActions({ children }: { children: ReactNode }) {
  return <div className="flex justify-end gap-1">{children}</div>;
}

export type IconActionProps = Omit<ButtonProps, "variant" | "size" | "children" | "aria-label" | "title"> & {
  icon: LucideIcon;
  /** The accessible name, naming the row's thing ("Delete Brand.woff2"): every row has the same icon. */
  label: string;
  /** The tooltip: the verb alone ("Delete"). */
  title: string;
  /** Red, for deleting. */
  danger?: boolean;
};

/**
 * A row's icon button; `loading` shows the spinner instead of the icon. Usable as a dialog's trigger (Radix's asChild): every other prop and the
 * ref reach the <button>.
 */
export function IconAction({ icon: Icon, label, title, danger = false, loading = false, className, ...props }: IconActionProps) {
  return (
    <Button variant="ghost" size="icon" aria-label={label} title={title} loading={loading} className={cn(danger && "text-danger hover:text-danger", className)} {...props}>
      {/* why: while loading the button's spinner takes the icon's place. */}
      {!loading && <Icon aria-hidden="true" className="size-4" />}
    </Button>
  );
}
