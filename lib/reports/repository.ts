/**
 * XLSX documents (spec: Limits > Monthly documents; drizzle/0025_xlsx_documents.sql): refused while
 * the workspace is full or suspended, counted once made.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import type { Refusal } from "../renders/admission";

/** Why the workspace may not make an XLSX document now (403 suspended, 402 month used up), or null. */
export async function xlsxRefusal(ex: Executor, workspaceId: string): Promise<Refusal | null> {
  const [r] = await ex.execute<{ refusal: Refusal | null }>(sql`select folio_admit_xlsx(${workspaceId}) as refusal`);
  return r?.refusal ?? null;
}

/** One more XLSX document this UTC month. */
export async function countXlsxDocument(ex: Executor, workspaceId: string): Promise<void> {
  await ex.execute(sql`
    insert into xlsx_documents (workspace_id, month, documents)
    values (${workspaceId}, date_trunc('month', now() at time zone 'UTC')::date, 1)
    on conflict (workspace_id, month) do update set documents = xlsx_documents.documents + 1`);
}
