// CancelRenderButton: asks, then cancels a queued or processing render through the server action
// (the same verb as POST /v1/renders/{id}/cancel) and shows the answer; the page then shows the new state.
"use client";
import { CircleStop } from "lucide-react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";

export function CancelRenderButton({ id, cancel }: { id: string; cancel: (input: { id: string }) => Promise<ActionResult<{ state: string }>> }) {
  const router = useRouter();
  const toast = useToast();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary">
          <CircleStop aria-hidden="true" className="size-4" /> Cancel render
        </Button>
      }
      title="Cancel this render?"
      text="The render stops within moments and makes no file. A cancelled render cannot be resumed; the caller has to render again."
      confirmLabel="Cancel render"
      cancelLabel="Keep rendering"
      danger
      onConfirm={async () => {
        const result = await cancel({ id });
        if (result.ok) toast.success("Render cancelled");
        else toast.error("Could not cancel the render", result.error.message);
        router.refresh();
      }}
    />
  );
}
