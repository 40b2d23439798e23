// LimitMeter: one render limit with how much of it is in use now, as a labelled meter.
import { cn } from "@/components/ui/cn";

export type LimitMeterProps = { label: string; used: number; max: number | null; format?: (n: number) => string; hint?: string };

export function LimitMeter({ label, used, max, format = (n) => n.toLocaleString("en-GB"), hint }: LimitMeterProps) {
  const ratio = max === null || max === 0 ? (max === 0 && used > 0 ? 1 : 0) : Math.min(1, used / max);
  const tone = ratio >= 1 ? "bg-red-600" : ratio >= 0.8 ? "bg-amber-500" : "bg-blue-600";
  const text = max === null ? `${format(used)} (unlimited)` : `${format(used)} of ${format(max)}`;
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-4">
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-sm font-medium text-gray-900">{label}</span>
        <span className="text-sm text-gray-700 tabular-nums">{text}</span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max ?? Math.max(used, 1)}
        aria-valuenow={used}
        aria-valuetext={text}
        className="mt-2 h-2 overflow-hidden rounded-full bg-gray-100"
      >
        <div className={cn("h-full rounded-full", max === null ? "bg-gray-300" : tone)} style={{ width: `${max === null ? 0 : Math.round(ratio * 100)}%` }} />
      </div>
      {hint && <p className="mt-2 text-xs text-gray-600">{hint}</p>}
    </div>
  );
}
