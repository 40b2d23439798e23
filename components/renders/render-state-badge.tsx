// RenderStateBadge: a render's state as a word with an icon (never colour alone).
import { Ban, CircleCheck, CircleX, Clock, Loader2 } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { Render } from "@/lib/renders/schemas";

const look: Record<Render["state"], { label: string; tone: BadgeTone; icon: typeof Clock; spin?: boolean }> = {
  queued: { label: "Queued", tone: "neutral", icon: Clock },
  processing: { label: "Processing", tone: "accent", icon: Loader2, spin: true },
  succeeded: { label: "Succeeded", tone: "success", icon: CircleCheck },
  failed: { label: "Failed", tone: "danger", icon: CircleX },
  cancelled: { label: "Cancelled", tone: "warning", icon: Ban },
};

export function RenderStateBadge({ state }: { state: Render["state"] }) {
  const { label, tone, icon: Icon, spin } = look[state];
  return (
    <Badge tone={tone} className="gap-1">
      <Icon aria-hidden="true" className={spin ? "size-3 animate-spin motion-reduce:animate-none" : "size-3"} />
      {label}
    </Badge>
  );
}

/** Queued or processing: the page keeps refreshing while any render it shows is. */
export const isRunning = (r: Pick<Render, "state">) => r.state === "queued" || r.state === "processing";

/** How a render's source reads in the console. */
export const sourceLabels: Record<string, string> = {
  document: "HTML document",
  templateVersion: "Template version",
  preview: "Draft preview",
  nodeDocument: "Node document",
  report: "Reports API",
};
