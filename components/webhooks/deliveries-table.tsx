// DeliveriesTable: one endpoint's deliveries, newest first: event, render, status, attempts, last
// status code and error, next attempt, and Redeliver (sends it again now, same webhook-id).
"use client";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DateTime } from "@/components/date-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ActionsHead } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { WebhookDelivery } from "@/lib/webhooks/schemas";

export type RedeliverAction = (input: { id: string; deliveryId: string }) => Promise<ActionResult<WebhookDelivery>>;

const tones = { pending: "warning", succeeded: "success", failed: "danger" } as const;
const labels = { pending: "Pending", succeeded: "Delivered", failed: "Failed" } as const;

function Redeliver({ endpointId, delivery, redeliver }: { endpointId: string; delivery: WebhookDelivery; redeliver: RedeliverAction }) {
  const router = useRouter();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const result = await redeliver({ id: endpointId, deliveryId: delivery.id });
      if (!result.ok) toast.error("Could not redeliver", result.error.message);
      else if (result.data.status === "succeeded") toast.success("Delivered", `The endpoint answered HTTP ${result.data.lastStatusCode}.`);
      else toast.error("Not delivered", result.data.lastError);
      router.refresh();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" loading={busy} onClick={() => void run()} aria-label={`Redeliver ${delivery.id}`}>
      Redeliver
    </Button>
  );
}

export function DeliveriesTable({ endpointId, items, redeliver }: { endpointId: string; items: readonly WebhookDelivery[]; redeliver: RedeliverAction }) {
  return (
    <Table label="Deliveries">
      <THead>
        <TRow>
          <TH>Event</TH>
          <TH>Status</TH>
          <TH>Attempts</TH>
          <TH>Last answer</TH>
          <TH>Next attempt</TH>
          <ActionsHead />
        </TRow>
      </THead>
      <TBody>
        {items.map((d) => (
          <TRow key={d.id}>
            <TCell>
              <code className="block font-mono text-xs text-gray-900">{d.eventType}</code>
              <Link href={`/renders/${d.renderId}`} className="block font-mono text-xs text-accent hover:underline">
                {d.renderId}
              </Link>
              <DateTime iso={d.createdAt} className="text-xs whitespace-nowrap text-gray-600" />
            </TCell>
            <TCell>
              <Badge tone={tones[d.status]}>{labels[d.status]}</Badge>
            </TCell>
            <TCell>{d.attempts}</TCell>
            <TCell>
              <span className="block min-w-36 max-w-64 break-words text-sm">
                {d.lastStatusCode !== undefined && <span className="font-medium">HTTP {d.lastStatusCode}</span>}
                {d.lastError && <span className="block text-xs text-danger">{d.lastError}</span>}
                {d.lastStatusCode === undefined && !d.lastError && <span className="text-gray-600">{d.attempts ? "" : "Not sent yet"}</span>}
              </span>
            </TCell>
            <TCell className="whitespace-nowrap">{d.nextAttemptAt ? <DateTime iso={d.nextAttemptAt} /> : <span className="text-gray-600">None</span>}</TCell>
            <TCell>
              <Redeliver endpointId={endpointId} delivery={d} redeliver={redeliver} />
            </TCell>
          </TRow>
        ))}
      </TBody>
    </Table>
  );
}
