import { sql, type SQL } from "drizzle-orm";
import type { RenderErrorRecord, RenderRow, RenderWarningRecord } from "../db/schema";

/** NOTIFY channel carrying the ended notice (see notifyEnded) of every render that reached a final state. */
export const RENDER_ENDED_CHANNEL = "folio_render_ended";
/** NOTIFY channel that wakes the workers' render loops when a render is queued. */
export const RENDER_QUEUED_CHANNEL = "folio_render_queued";
/** NOTIFY channel carrying the id of a render ended by someone other than its worker (cancelled, or taken back): its work should stop. */
export const RENDER_STOP_CHANNEL = "folio_render_stop";

/** What changes when a render ends, as the render-ended notification carries it. */
type EndedFields = Pick<RenderRow, "state" | "error" | "warnings" | "pageCount" | "outputBytes" | "durationMs" | "fileKey" | "startedAt" | "finishedAt" | "updatedAt">;
/** A render-ended notification: the id, and the ended fields unless they did not fit into one notification. */
export type EndedNotice = { id: string; fields?: EndedFields };

/**
 * NOTIFY of the ended notice for every row of `rows` (renders rows). The notice carries the ended
 * fields, so a waiting request answers without reading the render again; NOTIFY payloads are
 * limited to 8000 bytes, and a notice that would not fit (a long error message) carries the id only.
 */
export function notifyEnded(rows: SQL) {
  return sql`select pg_notify(${RENDER_ENDED_CHANNEL}, case when octet_length(n) < 7900 then n else json_build_object('id', id)::text end)
    from (select id, json_build_object('id', id, 'state', state, 'error', error, 'warnings', warnings, 'pageCount', page_count, 'outputBytes', output_bytes,
      'durationMs', duration_ms, 'fileKey', file_key, 'startedAt', started_at, 'finishedAt', finished_at, 'updatedAt', updated_at)::text as n
      from ${rows}) notices`;
}

/** The notice in a render-ended payload; a bare id (what a process of an older version sends) is a notice without fields. */
export function parseEndedNotice(payload: string): EndedNotice {
  if (!payload.startsWith("{")) return { id: payload };
  const n = JSON.parse(payload) as Record<string, unknown> & { id: string };
  if (n.state === undefined) return { id: n.id };
  const date = (v: unknown) => (v === null ? null : new Date(v as string));
  return {
    id: n.id,
    fields: {
      state: n.state as RenderRow["state"],
      error: n.error as RenderErrorRecord | null,
      // why the default: a process of an older version sends no warnings.
      warnings: (n.warnings ?? null) as RenderWarningRecord[] | null,
      pageCount: n.pageCount as number | null,
      outputBytes: n.outputBytes as number | null,
      durationMs: n.durationMs as number | null,
      fileKey: n.fileKey as string | null,
      startedAt: date(n.startedAt),
      finishedAt: date(n.finishedAt),
      updatedAt: date(n.updatedAt)!,
    },
  };
}
