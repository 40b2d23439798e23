// EmptyState: what a list shows when it has nothing yet: an icon, a title, a sentence and the action
// that fills it. <EmptyState icon={KeyRound} title="No API keys yet" text="…" action={<Button/>} />
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn";

export type EmptyStateProps = { icon?: LucideIcon; title: string; text?: ReactNode; action?: ReactNode; className?: string };

export function EmptyState({ icon: Icon, title, text, action, className }: EmptyStateProps) {
  return (
    <div className={cn("flex flex-col items-center rounded-lg border border-dashed border-gray-300 bg-white px-6 py-12 text-center", className)}>
      {Icon && (
        <div className="mb-4 rounded-full bg-accent-soft p-3">
          <Icon aria-hidden="true" className="size-6 text-accent" />
        </div>
      )}
      <h2 className="text-base font-semibold text-gray-900">{title}</h2>
      {text && <p className="mt-1 max-w-md text-sm text-gray-600">{text}</p>}
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}
