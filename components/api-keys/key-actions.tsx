// KeyActions: rotate, revoke and delete for one key, each asked first. Rotation then shows the new
// secret once and says until when the old one keeps working (15 minutes). The deploy key (set by
// the server) can only be revoked. The server refuses whatever the buttons would not offer.
"use client";
import { Ban, RefreshCw, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatTime } from "@/components/format";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { IconAction, RowActions } from "@/components/ui/row-actions";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { ApiKey } from "@/lib/keys/schemas";
import { SecretPanel } from "./secret-panel";

export type KeyActionsProps = {
  apiKey: ApiKey;
  publicUrl: string;
  rotate: (input: { id: string }) => Promise<ActionResult<{ key: ApiKey & { secret: string }; oldWorksUntil?: string }>>;
  revoke: (input: { id: string }) => Promise<ActionResult<ApiKey>>;
  remove: (input: { id: string }) => Promise<ActionResult<{ deleted: true; ids: string[] }>>;
};

export function KeyActions({ apiKey: k, publicUrl, rotate, revoke, remove }: KeyActionsProps) {
  const router = useRouter();
  const toast = useToast();
  const [rotated, setRotated] = useState<{ key: ApiKey & { secret: string }; oldWorksUntil?: string }>();
  const active = k.status === "active";
  const canRotate = active && !k.setByServer && !k.rotatedAt;

  const run = async <T,>(action: Promise<ActionResult<T>>, done: string, failed: string) => {
    const result = await action;
    if (result.ok) toast.success(done);
    else toast.error(failed, result.error.message);
    router.refresh();
    return result;
  };

  return (
    <RowActions>
      {canRotate && (
        <ConfirmDialog
          trigger={<IconAction icon={RefreshCw} label={`Rotate ${k.name}`} title="Rotate" />}
          title={`Rotate “${k.name}”?`}
          text="Folio makes a new key with the same name, scopes and lifetime and shows its secret once. The old secret keeps working for 15 minutes, or until its own expiry if that is sooner, so programs can switch over; then it stops."
          confirmLabel="Rotate key"
          onConfirm={async () => {
            const result = await run(rotate({ id: k.id }), `Key “${k.name}” rotated`, "Could not rotate the key");
            if (result.ok) setRotated(result.data);
          }}
        />
      )}
      {active && (
        <ConfirmDialog
          trigger={<IconAction icon={Ban} label={`Revoke ${k.name}`} title="Revoke" />}
          title={`Revoke “${k.name}”?`}
          text={
            k.setByServer
              ? "Requests with the deploy key are refused within about a second. It stays listed as revoked until the server starts with a new DEPLOY_API_KEY value."
              : "Requests with this key are refused within about a second. The key stays listed as revoked; it cannot be made active again."
          }
          confirmLabel="Revoke key"
          danger
          onConfirm={() => run(revoke({ id: k.id }), `Key “${k.name}” revoked`, "Could not revoke the key")}
        />
      )}
      {!k.setByServer && (
        <ConfirmDialog
          trigger={<IconAction icon={Trash2} label={`Delete ${k.name}`} title="Delete" danger />}
          title={`Delete “${k.name}”?`}
          text={`The key leaves this list${active ? " and stops working within about a second" : ""}. Its audit history stays. This cannot be undone.`}
          confirmLabel="Delete key"
          danger
          onConfirm={() => run(remove({ id: k.id }), `Key “${k.name}” deleted`, "Could not delete the key")}
        />
      )}
      <Dialog
        open={rotated !== undefined}
        onOpenChange={(open) => !open && setRotated(undefined)}
        title="Key rotated"
        description={`The replacement of “${k.name}” is ready.`}
        className="max-w-2xl"
      >
        {rotated && (
          <>
            <SecretPanel secret={rotated.key.secret} scopes={rotated.key.scopes} publicUrl={publicUrl}>
              <p className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm text-gray-900">
                The old secret keeps working for 15 minutes at most
                {rotated.oldWorksUntil ? (
                  <>
                    , until <time dateTime={rotated.oldWorksUntil}>{formatTime(rotated.oldWorksUntil)}</time>
                  </>
                ) : null}
                . Switch your programs to the new secret before then.
              </p>
            </SecretPanel>
            <DialogFooter>
              <Button onClick={() => setRotated(undefined)}>Done</Button>
            </DialogFooter>
          </>
        )}
      </Dialog>
    </RowActions>
  );
}
