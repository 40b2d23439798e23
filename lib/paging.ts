import { z } from "zod";
import { invalidValue } from "./errors";

/** spec: Endpoints > Paging. Query of every paged list; lists add their own filters with .extend(). */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(512).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export type Page<T> = { items: T[]; nextCursor?: string };

/** The position after which the next page starts: newest-first lists order by (createdAt, id). */
export type Cursor = { createdAt: Date; id: string };

/** Opaque to callers: base64url JSON. A cursor that does not decode answers 400 naming `query.cursor`. */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.createdAt.toISOString(), c.id])).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (cursor === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "string") {
      const createdAt = new Date(v[0]);
      if (!Number.isNaN(createdAt.getTime()) && v[1].length <= 128) return { createdAt, id: v[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw invalidValue("query.cursor", "is not a cursor this list returned");
}

/**
 * Builds a page from rows fetched with limit + 1: the extra row only says that another page exists.
 * why: keyset paging on (createdAt, id) is stable under concurrent inserts, which land before the cursor.
 */
export function toPage<R extends Cursor, T>(rows: R[], limit: number, map: (r: R) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const page: Page<T> = { items: items.map(map) };
  if (rows.length > limit && last) page.nextCursor = encodeCursor(last);
  return page;
}

/** Lists ordered by a number (revisions, versions) page by it: the cursor is the last number seen. */
export const OrderedPageQuery = PageQuery.extend({ order: z.enum(["asc", "desc"]).default("desc") });
export type OrderedPageQuery = z.infer<typeof OrderedPageQuery>;

export function encodeNumberCursor(n: number): string {
  return Buffer.from(JSON.stringify(["n", n])).toString("base64url");
}

export function decodeNumberCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(v) && v.length === 2 && v[0] === "n" && Number.isSafeInteger(v[1])) return v[1] as number;
  } catch {
    // fall through to the error below
  }
  throw invalidValue("query.cursor", "is not a cursor this list returned");
}

/** A page of rows fetched with limit + 1, ordered by a number. */
export function toNumberPage<R, T>(rows: R[], limit: number, key: (r: R) => number, map: (r: R) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const page: Page<T> = { items: items.map(map) };
  if (rows.length > limit && last) page.nextCursor = encodeNumberCursor(key(last));
  return page;
}
