import { ArrowLeft, Inbox } from "lucide-react";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { EndpointActions } from "@/components/webhooks/endpoint-actions";
import { EndpointState, EventTypes } from "@/components/webhooks/endpoints-table";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import { AppError } from "@/lib/errors";
import * as webhooks from "@/lib/webhooks";
import { deleteEndpointAction, redeliverAction, rotateSecretAction, sendTestEventAction, updateEndpointAction } from "../actions";

export const metadata: Metadata = { title: "Webhook endpoint" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** One endpoint: its settings and actions, and its deliveries (newest first, paged) with Redeliver. */
export default async function WebhookEndpointPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/webhooks");
  requireScopeOrRefuse(s, "webhook:manage", "manage webhooks");
  const { id } = await params;
  const sp = await searchParams;
  let endpoint: webhooks.WebhookEndpoint;
  let page: Awaited<ReturnType<typeof webhooks.listDeliveries>>;
  try {
    endpoint = await webhooks.getEndpoint(s.ctx, id);
    page = await webhooks.listDeliveries(s.ctx, id, { limit: 25, cursor: one(sp.cursor) });
  } catch (e) {
    if (e instanceof AppError && (e.code === "NOT_FOUND" || e.code === "BAD_REQUEST")) notFound();
    throw e;
  }
  return (
    <>
      <Link href="/webhooks" className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-accent hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" /> All endpoints
      </Link>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span className="break-all">{endpoint.url}</span> <EndpointState enabled={endpoint.enabled} />
          </span>
        }
        description={endpoint.description ?? <code className="font-mono text-xs">{endpoint.id}</code>}
        actions={
          <EndpointActions
            endpoint={endpoint}
            update={updateEndpointAction}
            rotate={rotateSecretAction}
            remove={deleteEndpointAction}
            sendTest={sendTestEventAction}
            afterDelete="/webhooks"
          />
        }
      />
      <div className="mb-6 flex flex-wrap items-center gap-2 text-sm text-gray-700">
        <span>Events:</span> <EventTypes types={endpoint.eventTypes} />
      </div>
      <h2 className="mb-3 text-base font-semibold text-gray-900">Deliveries</h2>
      {page.items.length === 0 ? (
        <EmptyState icon={Inbox} title="No deliveries yet" text="Each PDF render that ends from now on sends this endpoint an event of the types it subscribed to." />
      ) : (
        <>
          <DeliveriesTable endpointId={endpoint.id} items={page.items} redeliver={redeliverAction} />
          <Pager basePath={`/webhooks/${endpoint.id}`} searchParams={sp} nextCursor={page.nextCursor} />
        </>
      )}
    </>
  );
}
