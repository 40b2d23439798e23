// Spinner: the progress indicator of buttons and loading areas; hidden from screen readers (the
// control says aria-busy instead).
import { Loader2 } from "lucide-react";
import { cn } from "./cn";

export function Spinner({ className }: { className?: string }) {
  return <Loader2 aria-hidden="true" className={cn("size-4 animate-spin", className)} />;
}
