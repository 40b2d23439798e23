// EndpointActions: for one webhook endpoint: send a test event, enable or disable, edit, rotate the
// signing secret (the new one shown once; the old one keeps signing for 24 hours) and delete, each
// destructive one asked first. The server refuses whatever the buttons would not offer.
"use client";
import { Power, PowerOff, RefreshCw, Send, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { IconAction, RowActions } from "@/components/ui/row-actions";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { TestEventResult, WebhookEndpoint } from "@/lib/webhooks/schemas";
import { EndpointFormDialog, type UpdateEndpointAction } from "./endpoint-form-dialog";
import { SecretOnce } from "./secret-once";

export type EndpointActionsProps = {
  endpoint: WebhookEndpoint;
  update: UpdateEndpointAction;
  rotate: (input: { id: string }) => Promise<ActionResult<WebhookEndpoint & { secret: string }>>;
  remove: (input: { id: string }) => Promise<ActionResult<{ deleted: true; ids: string[] }>>;
  sendTest: (input: { id: string }) => Promise<ActionResult<TestEventResult>>;
  /** Where to go after a delete (the list, from the endpoint's own page). */
  afterDelete?: string;
};

export function EndpointActions({ endpoint: e, update, rotate, remove, sendTest, afterDelete }: EndpointActionsProps) {
  const router = useRouter();
  const toast = useToast();
  const [secret, setSecret] = useState<string>();
  const [testing, setTesting] = useState(false);
  const [toggling, setToggling] = useState(false);

  const test = async () => {
    setTesting(true);
    try {
      const result = await sendTest({ id: e.id });
      if (!result.ok) toast.error("Could not send the test event", result.error.message);
      else if (result.data.delivered) toast.success("Test event delivered", `The endpoint answered HTTP ${result.data.statusCode} in ${result.data.durationMs} ms.`);
      else toast.error("Test event not delivered", result.data.error);
    } finally {
      setTesting(false);
    }
  };
  const toggle = async () => {
    setToggling(true);
    try {
      const result = await update({ id: e.id, changes: { enabled: !e.enabled } } as Parameters<UpdateEndpointAction>[0]);
      if (result.ok) toast.success(e.enabled ? "Endpoint disabled" : "Endpoint enabled");
      else toast.error("Could not change the endpoint", result.error.message);
      router.refresh();
    } finally {
      setToggling(false);
    }
  };

  return (
    <RowActions>
      <IconAction icon={Send} label={`Send a test event to ${e.url}`} title="Send test event" loading={testing} onClick={() => void test()} />
      <IconAction icon={e.enabled ? PowerOff : Power} label={`${e.enabled ? "Disable" : "Enable"} ${e.url}`} title={e.enabled ? "Disable" : "Enable"} loading={toggling} onClick={() => void toggle()} />
      <EndpointFormDialog endpoint={e} update={update} />
      <ConfirmDialog
        trigger={<IconAction icon={RefreshCw} label={`Rotate the secret of ${e.url}`} title="Rotate secret" />}
        title="Rotate the signing secret?"
        text="Folio makes a new secret and shows it once. For 24 hours every event carries two signatures, one with the old secret and one with the new, so your receiver can switch over; then only the new one."
        confirmLabel="Rotate secret"
        onConfirm={async () => {
          const result = await rotate({ id: e.id });
          if (result.ok) {
            toast.success("Secret rotated");
            setSecret(result.data.secret);
          } else toast.error("Could not rotate the secret", result.error.message);
          router.refresh();
        }}
      />
      <ConfirmDialog
        trigger={<IconAction icon={Trash2} label={`Delete ${e.url}`} title="Delete" danger />}
        title="Delete this endpoint?"
        text={`Folio stops sending events to ${e.url} and discards its pending deliveries and delivery history. This cannot be undone.`}
        confirmLabel="Delete endpoint"
        danger
        onConfirm={async () => {
          const result = await remove({ id: e.id });
          if (result.ok) {
            toast.success("Endpoint deleted");
            if (afterDelete) router.push(afterDelete);
          } else toast.error("Could not delete the endpoint", result.error.message);
          router.refresh();
        }}
      />
      <Dialog open={secret !== undefined} onOpenChange={(open) => !open && setSecret(undefined)} title="Secret rotated" description={`The new signing secret of ${e.url}.`} className="max-w-xl">
        {secret && (
          <>
            <SecretOnce secret={secret}>
              <p className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm text-gray-900">The old secret keeps signing too for 24 hours. Switch your receiver to the new secret before then.</p>
            </SecretOnce>
            <DialogFooter>
              <Button onClick={() => setSecret(undefined)}>Done</Button>
            </DialogFooter>
          </>
        )}
      </Dialog>
    </RowActions>
  );
}
