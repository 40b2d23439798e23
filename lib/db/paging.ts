import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Cursor } from "../paging";

/** WHERE part of a newest-first keyset page: rows strictly after the cursor in (createdAt desc, id desc). */
export function olderThan(createdAt: PgColumn, id: PgColumn, cursor: Cursor | undefined): SQL | undefined {
  return cursor ? sql`(${createdAt}, ${id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id})` : undefined;
}
