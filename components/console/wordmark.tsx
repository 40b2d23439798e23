// Wordmark: "Folio" with its mark, drawn inline (no image from anywhere).
import { cn } from "@/components/ui/cn";

export function Wordmark({ className }: { className?: string }) {
  return (
    <span className={cn("flex items-center gap-2 text-lg font-semibold tracking-tight text-gray-900", className)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6">
        <rect x="3" y="2" width="18" height="20" rx="3" fill="var(--color-accent)" />
        <path d="M8 7h8M8 11h8M8 15h5" stroke="white" strokeWidth="2" strokeLinecap="round" />
      </svg>
      Folio
    </span>
  );
}
