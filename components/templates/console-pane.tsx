// ConsolePane: what the last preview's helpers and scripts logged (console.log, info, warn, error,
// debug), from its x-folio-console header (docs/api.md: Handlebars templates): level, step, message.
"use client";
import { Terminal } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { ConsoleEntry } from "./preview-pane";

export type ConsoleOutput = { entries: ConsoleEntry[]; omitted: number };

const levelTone: Record<string, string> = {
  error: "bg-danger-soft text-danger",
  warn: "bg-amber-50 text-amber-900",
};

export function ConsolePane({ output }: { output: ConsoleOutput | null }) {
  const entries = output?.entries ?? [];
  return (
    <section aria-label="Console" className="flex max-h-60 min-h-28 flex-col rounded-lg border border-gray-200 bg-white">
      <h2 className="flex items-center gap-2 border-b border-gray-200 px-3 py-2 text-sm font-semibold text-gray-900">
        <Terminal aria-hidden="true" className="size-4" /> Console
        {output && <span className="text-xs font-normal text-gray-600">{entries.length === 1 ? "1 line" : `${entries.length} lines`} from the last preview</span>}
      </h2>
      <div className="min-h-0 flex-1 overflow-auto" tabIndex={0} role="region" aria-label="Console output">
        {entries.length === 0 ? (
          <p className="px-3 py-3 text-sm text-gray-600">
            {output ? "The last preview logged nothing. " : ""}Call <code className="font-mono text-xs">console.log(&quot;total&quot;, total)</code> in helpers.js or a script; its lines show here after the next preview.
          </p>
        ) : (
          <ol className="divide-y divide-gray-100 font-mono text-xs" data-testid="console-lines">
            {entries.map((e, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 px-3 py-1.5">
                <span className={cn("rounded px-1.5 py-0.5 font-semibold uppercase", levelTone[e.level] ?? "bg-gray-100 text-gray-800")}>{e.level}</span>
                <span className="text-gray-600">{e.step}</span>
                <span className="min-w-0 basis-full whitespace-pre-wrap text-gray-900 [overflow-wrap:anywhere] sm:basis-auto sm:flex-1">{e.message}</span>
              </li>
            ))}
            {output!.omitted > 0 && <li className="px-3 py-1.5 text-gray-600">{output!.omitted} more lines did not fit in the answer.</li>}
          </ol>
        )}
      </div>
    </section>
  );
}
