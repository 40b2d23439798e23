// StylesheetList: the template editor's list of the folder's stylesheets to tick (spec: Component
// template: the console shows a list of the folder's stylesheets to tick). Ticked ones are
// composition.stylesheets, applied in the order shown (a later one wins), and can be moved; the
// rest of the folder's stylesheets follow, unticked.
"use client";
import { ArrowDown, ArrowUp, FileCode2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { EmptyState } from "@/components/ui/empty-state";
import type { StylesheetChoice } from "@/lib/templates/editor-files";

/** spec: Composition > stylesheets: up to 20. */
const MAX_STYLESHEETS = 20;

export function StylesheetList({
  choices,
  folderPath,
  value,
  onChange,
  readOnly,
}: {
  choices: StylesheetChoice[];
  /** The template's folder from the root ("" for the root). */
  folderPath: string;
  value: string[];
  onChange: (stylesheets: string[]) => void;
  readOnly: boolean;
}) {
  const known = new Set(choices.map((c) => c.path));
  const untickedChoices = choices.filter((c) => !value.includes(c.path));
  const full = value.length >= MAX_STYLESHEETS;
  const where = folderPath ? `the folder ${folderPath}` : "the workspace's root folder";

  const move = (i: number, by: -1 | 1) => {
    const next = [...value];
    const [item] = next.splice(i, 1);
    next.splice(i + by, 0, item!);
    onChange(next);
  };

  if (choices.length === 0 && value.length === 0) {
    return (
      <EmptyState
        icon={FileCode2}
        title="No stylesheets here yet"
        text={`Stylesheets (.css files) in ${where} and its subfolders are listed here to tick. Add them with the workspace's files.`}
      />
    );
  }

  return (
    <div className="flex flex-col gap-5 overflow-y-auto rounded-md border border-gray-200 bg-white p-4">
      <section aria-labelledby="stylesheets-applied">
        <h3 id="stylesheets-applied" className="text-sm font-semibold text-gray-900">
          Applied, in this order
        </h3>
        <p className="mt-0.5 text-xs text-gray-600">A later stylesheet wins over an earlier one; a component&apos;s own style wins over both.</p>
        {value.length === 0 ? (
          <p className="mt-3 text-sm text-gray-700">None ticked: the template uses no stylesheet.</p>
        ) : (
          <ol className="mt-3 space-y-2">
            {value.map((path, i) => (
              <li key={path} className="flex items-center justify-between gap-2 rounded-md border border-gray-200 px-3 py-2">
                <div className="flex min-w-0 items-center gap-2">
                  <Checkbox label={<span className="font-mono text-xs break-all">{path}</span>} checked onCheckedChange={() => onChange(value.filter((p) => p !== path))} disabled={readOnly} />
                  {!known.has(path) && <Badge tone="warning">Outside this folder or missing</Badge>}
                </div>
                {!readOnly && (
                  <div className="flex shrink-0 gap-1">
                    <Button variant="ghost" size="icon" aria-label={`Move ${path} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                      <ArrowUp aria-hidden="true" className="size-4" />
                    </Button>
                    <Button variant="ghost" size="icon" aria-label={`Move ${path} down`} disabled={i === value.length - 1} onClick={() => move(i, 1)}>
                      <ArrowDown aria-hidden="true" className="size-4" />
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="stylesheets-available">
        <h3 id="stylesheets-available" className="text-sm font-semibold text-gray-900">
          Available in {folderPath ? <span className="font-mono text-xs">{folderPath}</span> : "the root folder"} and below
        </h3>
        {full && <p className="mt-0.5 text-xs text-gray-600">A template uses at most {MAX_STYLESHEETS} stylesheets.</p>}
        {untickedChoices.length === 0 ? (
          <p className="mt-3 text-sm text-gray-700">Every stylesheet here is ticked.</p>
        ) : (
          <ul className="mt-3 space-y-2">
            {untickedChoices.map((c) => (
              <li key={c.path} className="rounded-md px-3 py-1.5">
                <Checkbox
                  label={<span className="font-mono text-xs break-all">{c.path}</span>}
                  checked={false}
                  onCheckedChange={() => onChange([...value, c.path])}
                  disabled={readOnly || full}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
