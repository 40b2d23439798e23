// RenderTimeline: a render's states in order: created, started, and how it ended (or that it still runs).
import { Ban, CircleCheck, CircleDashed, CircleX, Clock, Play } from "lucide-react";
import { formatDuration, formatFullDateTime } from "@/components/format";
import { cn } from "@/components/ui/cn";
import type { Render } from "@/lib/renders/schemas";

type Step = { label: string; at?: string; note?: string; icon: typeof Clock; tone: string };

function steps(r: Render): Step[] {
  const out: Step[] = [{ label: "Created", at: r.createdAt, note: "queued for a worker", icon: Clock, tone: "text-gray-700" }];
  const waited = r.startedAt ? Date.parse(r.startedAt) - Date.parse(r.createdAt) : undefined;
  if (r.startedAt) out.push({ label: "Started", at: r.startedAt, note: `after ${formatDuration(waited!)} in the queue`, icon: Play, tone: "text-accent" });
  else if (r.state === "queued") out.push({ label: "Waiting for a worker", icon: CircleDashed, tone: "text-gray-600" });
  if (r.state === "processing") out.push({ label: "Rendering", icon: CircleDashed, tone: "text-accent" });
  const took = r.finishedAt && r.startedAt ? ` after ${formatDuration(Date.parse(r.finishedAt) - Date.parse(r.startedAt))}` : "";
  if (r.state === "succeeded") out.push({ label: "Succeeded", at: r.finishedAt, note: `finished${took}`, icon: CircleCheck, tone: "text-success" });
  if (r.state === "failed") out.push({ label: "Failed", at: r.finishedAt, note: r.error ? `${r.error.code}: ${r.error.diagnostic}` : undefined, icon: CircleX, tone: "text-danger" });
  if (r.state === "cancelled") out.push({ label: "Cancelled", at: r.finishedAt, icon: Ban, tone: "text-warning" });
  return out;
}

export function RenderTimeline({ render }: { render: Render }) {
  return (
    <ol className="space-y-4" aria-label="Timeline">
      {steps(render).map((s) => (
        <li key={s.label} className="flex gap-3">
          <s.icon aria-hidden="true" className={cn("mt-0.5 size-5 shrink-0", s.tone)} />
          <div className="min-w-0 text-sm">
            <p className="font-medium text-gray-900">{s.label}</p>
            {s.at && (
              <p className="text-gray-700">
                <time dateTime={s.at}>{formatFullDateTime(s.at)}</time>
              </p>
            )}
            {s.note && <p className="text-gray-600">{s.note}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}
