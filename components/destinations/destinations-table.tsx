// DestinationsTable: the workspace's storage destinations (never their secrets), with edit and delete.
"use client";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { DateTime } from "@/components/date-time";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ActionsHead, IconAction, RowActions } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { StorageDestination } from "@/lib/destinations/schemas";
import { DestinationDialog, type UpdateDestinationAction } from "./destination-dialog";

export type DeleteDestinationAction = (input: { id: string }) => Promise<ActionResult<{ deleted: true; ids: string[] }>>;

export function DestinationsTable({ items, update, remove }: { items: readonly StorageDestination[]; update: UpdateDestinationAction; remove: DeleteDestinationAction }) {
  const router = useRouter();
  const toast = useToast();
  return (
    <Table label="Storage destinations">
      <THead>
        <TRow>
          <TH>Name</TH>
          <TH>Bucket and prefix</TH>
          <TH>Endpoint</TH>
          <TH>Access key ID</TH>
          <TH>Changed</TH>
          <ActionsHead />
        </TRow>
      </THead>
      <TBody>
        {items.map((d) => (
          <TRow key={d.id}>
            <TCell>
              <span className="block max-w-48 truncate font-medium" title={d.name}>
                {d.name}
              </span>
            </TCell>
            <TCell>
              <code className="font-mono text-xs break-all text-gray-900">
                {d.bucket}
                {d.prefix ? `/${d.prefix}/` : "/"}
              </code>
              <span className="block text-xs text-gray-600">{d.region}</span>
            </TCell>
            <TCell>
              {d.endpoint ? <code className="font-mono text-xs break-all">{d.endpoint}</code> : <span className="text-gray-600">Amazon S3</span>}
              {d.forcePathStyle && <span className="block text-xs text-gray-600">path-style</span>}
            </TCell>
            <TCell>
              <code className="font-mono text-xs break-all">{d.accessKeyId}</code>
            </TCell>
            <TCell className="whitespace-nowrap">
              <DateTime iso={d.updatedAt} dateOnly />
            </TCell>
            <TCell>
              <RowActions>
                <DestinationDialog mode="edit" destination={d} save={update} />
                <ConfirmDialog
                  trigger={<IconAction icon={Trash2} label={`Delete ${d.name}`} title="Delete" danger />}
                  title={`Delete “${d.name}”?`}
                  text="Its saved keys are deleted. Objects already in the bucket stay. Renders still queued for it fail, and render requests naming it are refused. This cannot be undone."
                  confirmLabel="Delete destination"
                  danger
                  onConfirm={async () => {
                    const result = await remove({ id: d.id });
                    if (result.ok) toast.success(`Destination “${d.name}” deleted`);
                    else toast.error("Could not delete the destination", result.error.message);
                    router.refresh();
                  }}
                />
              </RowActions>
            </TCell>
          </TRow>
        ))}
      </TBody>
    </Table>
  );
}
