// ConflictDialog: a save met a newer revision (useRevisionedSave). It says who saved which revision
// when, and offers Reload (their version; the edits are dropped) or Overwrite (the edits replace it).
"use client";
import { editorLabel, formatWhen } from "@/components/editor/format";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import type { ConflictState } from "./use-revisioned-save";

export function ConflictDialog({
  state: { conflict, resolving, reload, overwrite, dismiss },
  noun,
  replaced = "their changes are replaced",
}: {
  state: ConflictState;
  /** "file", "template". */
  noun: string;
  /** What Overwrite replaces, where it is less than the whole document. */
  replaced?: string;
}) {
  const current = conflict?.savedBy ? conflict : undefined;
  return (
    <Dialog
      open={conflict !== null}
      onOpenChange={(open) => !open && dismiss()}
      title={`Someone saved this ${noun} meanwhile`}
      description={
        current
          ? `${editorLabel(current.savedBy)} saved revision ${current.revision}${current.savedAt ? ` at ${formatWhen(current.savedAt)}` : ""}, after you opened it.`
          : conflict?.message
      }
    >
      <p className="text-sm text-gray-700">Reload to see their version (your unsaved changes are discarded), or overwrite it with yours ({replaced}).</p>
      <DialogFooter>
        <Button variant="secondary" onClick={() => void reload()} loading={resolving === "reload"} disabled={resolving !== null}>
          Reload
        </Button>
        <Button variant="danger" onClick={() => void overwrite()} loading={resolving === "overwrite"} disabled={resolving !== null}>
          Overwrite
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
