// UsageChart: one bar a day over every day of a range (days without usage are empty), each bar
// stacked: other renders (or pages) solid, test ones in amber stripes, so they read apart by colour and pattern.
// Drawn with CSS on the server; hidden from assistive technology, which reads the table of the same
// numbers under it (UsageDays). Always as wide as its box: a long range makes thinner bars, never a
// sideways scroll. <UsageChart title="Renders per day" from="2026-11-01" to="2026-11-30" values={...} />
import type { CSSProperties } from "react";
import { cn } from "@/components/ui/cn";

export type ChartValue = { total: number; test: number };

const DAY_MS = 86_400_000;
const n = (v: number) => v.toLocaleString("en-GB");
const shortDay = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/** Every UTC day from..to, both included. */
export function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The chart's top line: 1, or the smallest even step (2, 4, 6, 8 or 10 times a power of ten) at or above v, so its middle line is a whole number too. */
function niceMax(v: number): number {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 4, 6, 8, 10].map((m) => m * p).find((m) => m >= v)!;
}

/** Days between labels: at most five labels, on a step a reader counts in (a day, two, a week, two weeks, four, a quarter). */
function labelStep(count: number): number {
  return [1, 2, 7, 14, 28, 61, 91].find((s) => Math.ceil(count / s) <= 5) ?? 91;
}

/** Where a day's label sits: centred under its bar, but kept inside the chart near either edge. */
function labelPosition(i: number, count: number): CSSProperties {
  const centre = ((i + 0.5) / count) * 100;
  if (centre < 10) return { left: 0 };
  if (centre > 88) return { right: `${100 - ((i + 1) / count) * 100}%` };
  return { left: `${centre}%`, transform: "translateX(-50%)" };
}

// why amber stripes for every test part: a bar a day over a year is a pixel wide, too thin for
// stripes to show, so test parts differ by colour too (blue and green against amber, apart for
// colour-blind readers as well), and by pattern where bars are wide enough.
const testStripes = "repeating-linear-gradient(135deg, #b45309 0 2px, #fbbf24 2px 4px)";
const tones = {
  blue: { solid: "#2563eb", stripes: testStripes },
  emerald: { solid: "#047857", stripes: testStripes },
};

export function Swatch({ tone, test }: { tone: keyof typeof tones; test?: boolean }) {
  return <span className="inline-block size-3 shrink-0 rounded-sm" style={{ background: test ? tones[tone].stripes : tones[tone].solid }} />;
}

export function UsageChart({
  title,
  from,
  to,
  values,
  tone,
  unit,
}: {
  title: string;
  from: string;
  to: string;
  values: Map<string, ChartValue>;
  tone: keyof typeof tones;
  /** Plural noun for the hover text, e.g. "renders". */
  unit: string;
}) {
  const days = daysOf(from, to);
  const top = niceMax(Math.max(0, ...[...values.values()].map((v) => v.total)));
  const step = labelStep(days.length);
  const centre = (i: number) => `${((i + 0.5) / days.length) * 100}%`;
  return (
    <div aria-hidden="true" className="min-w-0 rounded-lg border border-gray-200 bg-white p-4">
      <p className="mb-3 text-sm font-medium text-gray-900">{title}</p>
      <div className="flex gap-2">
        <div className="flex h-40 flex-col justify-between text-right text-[11px] leading-none text-gray-600 tabular-nums">
          <span>{n(top)}</span>
          {top > 1 && <span>{n(top / 2)}</span>}
          <span>0</span>
        </div>
        <div className="min-w-0 flex-1">
          <div className="relative h-40 border-b border-gray-300">
            <div className="absolute inset-x-0 top-0 border-t border-dashed border-gray-200" />
            {top > 1 && <div className="absolute inset-x-0 top-1/2 border-t border-dashed border-gray-200" />}
            <div className={cn("relative flex h-full items-end", days.length <= 62 && "gap-px")}>
              {days.map((d) => {
                const v = values.get(d) ?? { total: 0, test: 0 };
                const other = v.total - v.test;
                return (
                  <div key={d} className="h-full min-w-0 flex-1" title={`${d}: ${n(v.total)} ${unit}${v.test > 0 ? `, ${n(v.test)} of them test` : ""}`}>
                    {/* why max-w: a range of a few days would otherwise draw slabs, not bars. */}
                    <div className="mx-auto flex h-full max-w-12 flex-col justify-end">
                      {v.test > 0 && <div className="w-full rounded-t-sm" style={{ height: `${(v.test / top) * 100}%`, background: tones[tone].stripes }} />}
                      {other > 0 && <div className={cn("w-full", v.test === 0 && "rounded-t-sm")} style={{ height: `${(other / top) * 100}%`, background: tones[tone].solid }} />}
                    </div>
                  </div>
                );
              })}
            </div>
          </div>
          <div className="relative h-1">
            {days.map((d, i) => (i % step === 0 ? <span key={d} className="absolute top-0 h-1 border-l border-gray-400" style={{ left: centre(i) }} /> : null))}
          </div>
          <div className="relative mt-0.5 h-4 text-[11px] text-gray-600">
            {days.map((d, i) =>
              i % step === 0 ? (
                <span
                  key={d}
                  className="absolute whitespace-nowrap"
                  style={labelPosition(i, days.length)}
                >
                  {shortDay(d)}
                </span>
              ) : null,
            )}
          </div>
        </div>
      </div>
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-700">
        <span className="flex items-center gap-1.5">
          <Swatch tone={tone} /> Other {unit}
        </span>
        <span className="flex items-center gap-1.5">
          <Swatch tone={tone} test /> Test {unit}
        </span>
      </p>
    </div>
  );
}
