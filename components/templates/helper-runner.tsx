// HelperRunner: under helpers.js, runs one helper with arguments typed as JSON and shows what it
// returned (lib/templates/helper-run.ts: a preview of the draft as it is in the editor, format html,
// whose template.html is that one call). What the helper logs shows in the Console pane as a preview's does.
"use client";
import { Play } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { helperNames } from "@/lib/templates/hbs-completions";
import { consoleOf, type HbsContent } from "@/lib/templates/hbs-editor-tabs";
import { helperRunRequest } from "@/lib/templates/helper-run";
import type { ConsoleOutput } from "./console-pane";
import { failureOf } from "./preview-pane";

type Outcome = { ok: true; output: string } | { ok: false; message: string };

export function HelperRunner({
  templateId,
  helpers,
  content,
  data,
  onConsole,
}: {
  templateId: string;
  helpers: string;
  /** The draft as the editor has it, or why it cannot be sent. */
  content: { ok: true; content: HbsContent } | { ok: false; message: string };
  data: { ok: true; data: Record<string, unknown> } | { ok: false; message: string };
  onConsole: (output: ConsoleOutput) => void;
}) {
  const id = useId();
  const names = helperNames(helpers);
  const [picked, setPicked] = useState("");
  const [args, setArgs] = useState("");
  const [hash, setHash] = useState("");
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const name = names.includes(picked) ? picked : (names[0] ?? "");

  const run = async () => {
    if (!content.ok) return setOutcome({ ok: false, message: content.message });
    if (!data.ok) return setOutcome({ ok: false, message: data.message });
    const request = helperRunRequest(name, args, hash, content.content, data.data);
    if (!request.ok) return setOutcome({ ok: false, message: request.message });
    setRunning(true);
    try {
      const res = await fetch(`/v1/templates/${templateId}/preview`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request.body) });
      const logged = consoleOf(res.headers);
      if (logged) onConsole(logged);
      if (res.ok) return setOutcome({ ok: true, output: await res.text() });
      setOutcome({ ok: false, message: (await failureOf(res, "The run")).message });
    } catch {
      setOutcome({ ok: false, message: "The run did not reach the server; check the connection and run it again." });
    } finally {
      setRunning(false);
    }
  };

  if (names.length === 0) return <p className="text-xs text-gray-600">Declare a helper (function name(value) {"{ … }"}) to run it here with arguments.</p>;
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 rounded-md border border-gray-200 bg-white p-3">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-gray-900">
        Run a helper
      </h3>
      <form
        className="grid gap-2 sm:grid-cols-[minmax(0,10rem)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-helper`} className="text-xs font-medium text-gray-700">
            Helper
          </label>
          <Select id={`${id}-helper`} options={names.map((n) => ({ value: n, label: n }))} value={name} onValueChange={setPicked} />
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-args`} className="text-xs font-medium text-gray-700">
            Arguments (JSON array)
          </label>
          <Input id={`${id}-args`} value={args} onChange={(e) => setArgs(e.target.value)} placeholder='[1234.5, "EUR"]' className="h-9 font-mono" spellCheck={false} autoComplete="off" />
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-hash`} className="text-xs font-medium text-gray-700">
            Options (JSON object)
          </label>
          <Input id={`${id}-hash`} value={hash} onChange={(e) => setHash(e.target.value)} placeholder='{"currency": "EUR"}' className="h-9 font-mono" spellCheck={false} autoComplete="off" />
        </div>
        <Button type="submit" variant="secondary" disabled={running}>
          <Play aria-hidden="true" className="size-4" /> {running ? "Running…" : "Run"}
        </Button>
      </form>
      <p className="text-xs text-gray-600">The helper runs in the sandbox with the sample data previewed as its context; the draft is not saved.</p>
      <div aria-live="polite">
        {outcome &&
          (outcome.ok ? (
            <div>
              <p className="text-xs font-medium text-gray-700">Returned</p>
              <pre data-testid="helper-output" className="max-h-32 overflow-auto whitespace-pre-wrap rounded bg-gray-50 p-2 font-mono text-xs text-gray-900 [overflow-wrap:anywhere]">
                {outcome.output === "" ? "(empty text)" : outcome.output}
              </pre>
            </div>
          ) : (
            <p role="alert" className="rounded bg-danger-soft p-2 text-xs text-danger [overflow-wrap:anywhere]">
              {outcome.message}
            </p>
          ))}
      </div>
    </section>
  );
}
