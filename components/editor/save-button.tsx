// SaveButton: an editor's Save, as useRevisionedSave saves (Ctrl/Cmd+S does the same), disabled
// while nothing is unsaved.
"use client";
import { Save } from "lucide-react";
import { Button } from "@/components/ui/button";

export function SaveButton({ onSave, saving, dirty }: { onSave: () => Promise<void>; saving: boolean; dirty: boolean }) {
  return (
    <Button onClick={() => void onSave()} loading={saving} disabled={!dirty} aria-keyshortcuts="Control+S Meta+S">
      <Save aria-hidden="true" className="size-4" /> Save
    </Button>
  );
}
