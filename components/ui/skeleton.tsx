// Skeleton: a grey placeholder of the size of what is loading (loading.tsx files), so nothing
// jumps when the content arrives.
import { cn } from "./cn";

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-gray-200", className)} />;
}
