import { HardDriveUpload } from "lucide-react";
import type { Metadata } from "next";
import { DestinationDialog } from "@/components/destinations/destination-dialog";
import { DestinationsTable } from "@/components/destinations/destinations-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import * as destinations from "@/lib/destinations";
import { createDestinationAction, deleteDestinationAction, updateDestinationAction } from "./actions";

export const metadata: Metadata = { title: "Storage destinations" };

/** The workspace's storage destinations (owners and admins): list, create and edit with the test upload's result, delete. */
export default async function DestinationsPage() {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/destinations");
  requireScopeOrRefuse(s, "destination:manage", "manage storage destinations");
  const { items } = await destinations.listDestinations(s.ctx);
  const full = items.length >= destinations.MAX_DESTINATIONS;
  return (
    <>
      <PageHeader
        title="Storage destinations"
        description={`Buckets of your own (S3 or S3-compatible) that renders of ${s.workspace.name} can upload their files to: name one in a render's destination field. Up to ${destinations.MAX_DESTINATIONS}.`}
        actions={<DestinationDialog mode="create" save={createDestinationAction} disabled={full} />}
      />
      {items.length === 0 ? (
        <EmptyState
          icon={HardDriveUpload}
          title="No storage destinations yet"
          text="Add a bucket (above): Folio writes a small test object to check the keys, and renders that name the destination upload there before they count as succeeded."
        />
      ) : (
        <DestinationsTable items={items} update={updateDestinationAction} remove={deleteDestinationAction} />
      )}
    </>
  );
}
