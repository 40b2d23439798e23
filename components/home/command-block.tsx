// CommandBlock: a shell command to copy, as a labelled, scrollable, keyboard-reachable block.
import { CopyButton } from "@/components/ui/copy-button";

export function CommandBlock({ command, label, copyLabel = "Copy command" }: { command: string; label: string; copyLabel?: string }) {
  return (
    <div className="mt-3 overflow-hidden rounded-md border border-gray-800 bg-gray-900">
      <div className="flex items-center justify-between gap-2 border-b border-gray-700 px-3 py-1.5">
        <span className="text-xs font-medium text-gray-300">{label}</span>
        <CopyButton text={command} label={copyLabel} variant="secondary" />
      </div>
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto p-3 font-mono text-xs leading-relaxed text-gray-100">
        {command}
      </pre>
    </div>
  );
}
