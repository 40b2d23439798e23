// NamedFiles: a Handlebars template's list tabs (partials, scripts, sample data sets): pick a file,
// add one, rename or delete it, and edit the picked one's text in the editor given.
"use client";
import { Plus, Trash2 } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { freeName, hbsNameProblem, type NamedText } from "@/lib/templates/hbs-editor-tabs";

export function NamedFiles({
  kind,
  noun,
  value,
  onChange,
  selected,
  onSelect,
  readOnly,
  newText,
  empty,
  editor,
  problemNames = [],
}: {
  kind: "partials" | "scripts" | "sampleData";
  /** "partial", "script", "sample data set". */
  noun: string;
  value: NamedText[];
  onChange: (files: NamedText[]) => void;
  selected: string | undefined;
  onSelect: (name: string | undefined) => void;
  readOnly: boolean;
  /** The text a new file starts with. */
  newText: string;
  /** What the tab says while there are none. */
  empty: ReactNode;
  editor: (file: NamedText, onText: (text: string) => void) => ReactNode;
  /** Files with problems, marked in the list. */
  problemNames?: string[];
}) {
  const current = value.find((f) => f.name === selected) ?? value[0];
  const [draftName, setDraftName] = useState<{ of: string; name: string } | null>(null);
  const [error, setError] = useState<string>();
  const names = value.map((f) => f.name);

  const add = () => {
    const name = freeName(kind === "sampleData" ? "sample" : kind === "scripts" ? "script" : "partial", names);
    onChange([...value, { name, text: newText }]);
    onSelect(name);
    setError(undefined);
  };
  const rename = (from: string, to: string) => {
    const name = to.trim();
    if (name === from) return setDraftName(null);
    const problem = hbsNameProblem(kind, name, names.filter((n) => n !== from));
    if (problem) return setError(problem);
    onChange(value.map((f) => (f.name === from ? { ...f, name } : f)));
    onSelect(name);
    setDraftName(null);
    setError(undefined);
  };
  const remove = (name: string) => {
    const rest = value.filter((f) => f.name !== name);
    onChange(rest);
    onSelect(rest[0]?.name);
  };

  return (
    <div className="flex h-full min-h-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label={`${noun[0]!.toUpperCase()}${noun.slice(1)}s`} className="flex min-w-0 flex-wrap gap-1">
          {value.map((f) => (
            <button
              key={f.name}
              type="button"
              aria-pressed={f.name === current?.name}
              onClick={() => onSelect(f.name)}
              className={cn(
                "max-w-full truncate rounded-md border px-2.5 py-1 font-mono text-xs focus-visible:outline-2 focus-visible:outline-ring",
                f.name === current?.name ? "border-accent bg-accent-soft text-accent" : "border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
                problemNames.includes(f.name) && "border-danger text-danger",
              )}
            >
              {f.name}
            </button>
          ))}
        </div>
        {!readOnly && (
          <Button variant="secondary" size="sm" onClick={add}>
            <Plus aria-hidden="true" className="size-4" /> Add {noun}
          </Button>
        )}
      </div>
      {!current ? (
        <div className="rounded-lg border border-dashed border-gray-300 bg-white px-6 py-8 text-center text-sm text-gray-600">{empty}</div>
      ) : (
        <>
          {!readOnly && (
            <form
              className="flex flex-wrap items-start gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                rename(current.name, draftName?.of === current.name ? draftName.name : current.name);
              }}
            >
              <Field label={`Name of this ${noun}`} error={error} className="min-w-40 flex-1">
                {(p) => (
                  <Input
                    {...p}
                    value={draftName?.of === current.name ? draftName.name : current.name}
                    onChange={(e) => setDraftName({ of: current.name, name: e.target.value })}
                    autoComplete="off"
                  />
                )}
              </Field>
              <Button type="submit" variant="secondary" className="mt-[1.625rem]" disabled={draftName?.of !== current.name || draftName.name === current.name}>
                Rename
              </Button>
              <Button variant="ghost" className="mt-[1.625rem]" onClick={() => remove(current.name)}>
                <Trash2 aria-hidden="true" className="size-4" /> Delete
              </Button>
            </form>
          )}
          <div className="min-h-[14rem] flex-1 overflow-hidden rounded-md border border-gray-300">
            {editor(current, (text) => onChange(value.map((f) => (f.name === current.name ? { ...f, text } : f))))}
          </div>
        </>
      )}
    </div>
  );
}
