// ConfirmDialog: asks before an action that cannot be undone (Radix alert dialog). The confirm
// button shows progress while `onConfirm` runs; the dialog closes when it resolves to anything but
// false (return false to keep it open, say to show an error elsewhere).
"use client";
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useState, type ReactNode } from "react";
import { Button } from "./button";
import { overlayClasses, panelClasses } from "./dialog";

export type ConfirmDialogProps = {
  /** The element that opens it (a Button); leave out when `open` is controlled. */
  trigger?: ReactNode;
  title: ReactNode;
  text: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button, for deleting and revoking. */
  danger?: boolean;
  onConfirm: () => unknown | Promise<unknown>;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Shown below the text (block content, such as why the last attempt was refused). */
  children?: ReactNode;
};

export function ConfirmDialog({ trigger, title, text, confirmLabel, cancelLabel = "Cancel", danger = false, onConfirm, open, onOpenChange, children }: ConfirmDialogProps) {
  const [own, setOwn] = useState(false);
  const [busy, setBusy] = useState(false);
  const isOpen = open ?? own;
  const setOpen = (v: boolean) => {
    if (busy) return;
    setOwn(v);
    onOpenChange?.(v);
  };
  const confirm = async () => {
    setBusy(true);
    try {
      const result = await onConfirm();
      if (result !== false) {
        setOwn(false);
        onOpenChange?.(false);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={isOpen} onOpenChange={setOpen}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={panelClasses}>
          <AlertDialog.Title className="text-lg font-semibold text-gray-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-gray-700">{text}</AlertDialog.Description>
          {children}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={busy}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            {/* why not AlertDialog.Action: it closes at once; this one waits for the action to end. */}
            <Button variant={danger ? "danger" : "primary"} loading={busy} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
