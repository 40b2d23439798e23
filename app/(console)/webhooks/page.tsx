import { Webhook } from "lucide-react";
import type { Metadata } from "next";
import { EndpointFormDialog } from "@/components/webhooks/endpoint-form-dialog";
import { EndpointsTable } from "@/components/webhooks/endpoints-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import * as webhooks from "@/lib/webhooks";
import { createEndpointAction, deleteEndpointAction, rotateSecretAction, sendTestEventAction, updateEndpointAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

/** The workspace's webhook endpoints (owners and admins): list, add, edit, enable/disable, test, rotate, delete. */
export default async function WebhooksPage() {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/webhooks");
  requireScopeOrRefuse(s, "webhook:manage", "manage webhooks");
  const { items } = await webhooks.listEndpoints(s.ctx);
  const add = items.length < webhooks.MAX_ENDPOINTS ? <EndpointFormDialog create={createEndpointAction} /> : undefined;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Folio tells your servers when a PDF render of ${s.workspace.name} ends, with a signed POST to each endpoint (at most ${webhooks.MAX_ENDPOINTS}).`}
        actions={add}
      />
      {items.length === 0 ? (
        <EmptyState icon={Webhook} title="No webhook endpoints yet" text="Add an endpoint (above) to be told when renders succeed, fail or are cancelled." />
      ) : (
        <EndpointsTable items={items} actions={{ update: updateEndpointAction, rotate: rotateSecretAction, remove: deleteEndpointAction, sendTest: sendTestEventAction }} />
      )}
    </>
  );
}
