// PageHeader: the top of every console page: the page's one <h1>, a sentence, and its main actions.
import type { ReactNode } from "react";
import { cn } from "./cn";

export type PageHeaderProps = { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string };

export function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <div className={cn("mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between", className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-gray-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-gray-600">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
