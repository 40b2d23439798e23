/**
 * Render admission (spec: Limits > Render allowances, Monthly documents, Test renders; docs/architecture.md
 * "Render admission"). The rules live in the database function folio_admit_renders (drizzle/0010_render_admission.sql):
 * it takes the workspace's admission lock, held until the creating transaction commits, and counts
 * after it, so the allowances are exact across concurrent requests on any number of web nodes.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Ctx } from "../auth/context";
import { config } from "../config";
import type { Executor, Tx } from "../db/client";
import { AppError, type ErrorCode } from "../errors";

/** How many renders a request creates: non-test ones (the workspace's allowances) and test ones (the test allowance). */
export type Admission = { normal: number; test: number };

/** What folio_admit_renders answers when it refuses; null when it admits. */
export type Refusal = { code: ErrorCode; message: string; retryAfter?: number };

/** The SQL expression that admits `counts` renders of `workspaceId` (a jsonb refusal or null). */
export function admissionSql(workspaceId: string, counts: Admission): SQL {
  return sql`folio_admit_renders(${workspaceId}, ${counts.normal}::int, ${counts.test}::int, ${config().DEPLOYMENT_MODE === "hosted"})`;
}

/**
 * The SQL expression that admits one editor preview of `editor` (docs/architecture.md, Editor
 * previews): its own allowance (drizzle/0019_editor_preview_allowance.sql), never the workspace's.
 */
export function editorPreviewAdmissionSql(workspaceId: string, editor: string): SQL {
  return sql`folio_admit_editor_preview(${workspaceId}, ${editor})`;
}

/** The error of a refusal: 429 with Retry-After, 402, 400 LIMIT_EXCEEDED, 403 for a suspended workspace. */
export function refusalError(refusal: Refusal): AppError {
  const headers = refusal.retryAfter === undefined ? undefined : { "retry-after": String(refusal.retryAfter) };
  return new AppError(refusal.code, refusal.message, headers ? { headers } : {});
}

/**
 * Admits `counts` renders for ctx's workspace or throws: 403 FORBIDDEN (suspended), 400
 * LIMIT_EXCEEDED (more renders than an allowance itself: batches), 402 QUOTA_EXCEEDED
 * (documentsPerMonth, testRendersPerDay), 429 RATE_LIMITED with Retry-After (maxActiveRenders: 1 s;
 * rendersPerMinute: seconds until enough of the window leaves it). Call it inside the transaction
 * that inserts the renders, before inserting them: the lock it takes serialises the workspace's
 * admissions until that transaction commits (outside a transaction the lock would end with this
 * statement and two requests could both be admitted).
 */
export async function admitRenders(tx: Tx, ctx: Pick<Ctx, "workspaceId">, counts: Admission): Promise<void> {
  if (counts.normal <= 0 && counts.test <= 0) return;
  const [r] = await (tx as Executor).execute<{ refusal: Refusal | null }>(sql`select ${admissionSql(ctx.workspaceId, counts)} as refusal`);
  if (r?.refusal) throw refusalError(r.refusal);
}
