import type { RenderErrorRecord, RenderRow } from "../db/schema";

/**
 * A render claimed for an attempt, with the caller's input its worker renders and how long it
 * waited since it was created, in ms.
 */
export type ClaimedRender = RenderRow & { payload: Record<string, unknown> | null; queuedMs: number };

const date = (v: unknown) => (v === null ? null : new Date(v as string));

/**
 * A renders row as the raw statements return it (snake_case, bigint as text), typed as drizzle
 * would type it: those statements do in one round trip what drizzle's builder cannot express.
 */
export function renderRowFrom(r: Record<string, unknown>): RenderRow {
  return {
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    state: r.state as RenderRow["state"],
    test: r.test as boolean,
    source: r.source as string,
    format: r.format as RenderRow["format"],
    options: r.options as RenderRow["options"],
    templateId: r.template_id as string | null,
    templateVersionId: r.template_version_id as string | null,
    requestId: r.request_id as string | null,
    attempts: r.attempts as number,
    turn: Number(r.turn ?? 0),
    leaseExpiresAt: date(r.lease_expires_at),
    error: r.error as RenderErrorRecord | null,
    warnings: (r.warnings ?? null) as RenderRow["warnings"],
    pageCount: r.page_count as number | null,
    outputBytes: r.output_bytes === null ? null : Number(r.output_bytes),
    durationMs: r.duration_ms as number | null,
    destinationId: (r.destination_id ?? null) as string | null,
    destinationName: (r.destination_name ?? null) as string | null,
    destinationKey: (r.destination_key ?? null) as string | null,
    keepCopy: (r.keep_copy ?? true) as boolean,
    batchId: (r.batch_id ?? null) as string | null,
    batchIndex: (r.batch_index ?? null) as number | null,
    fileKey: r.file_key as string | null,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
  };
}

/** A claimed render and its input, from a raw row of a claim that joined render_inputs' payload. */
export function claimedRenderFrom(r: Record<string, unknown>): ClaimedRender {
  return { ...renderRowFrom(r), payload: r.payload as Record<string, unknown> | null, queuedMs: r.queued_ms as number };
}
