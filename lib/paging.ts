import { z } from "zod";
import { invalidValue } from "./errors";

/** spec: Endpoints > Paging. Query of every paged list; lists add their own filters with .extend(). */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: "Items per page, 1 to 100" }),
  cursor: z.string().min(1).max(512).optional().meta({ description: "The nextCursor of the previous page; without it, the first page" }),
});
export type PageQuery = z.infer<typeof PageQuery>;

export type Page<T> = { items: T[]; nextCursor?: string };

/** A page's schema for the OpenAPI document: its items and, when another page exists, its cursor. */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({ items: z.array(item), nextCursor: z.string().optional().meta({ description: "Pass as cursor for the next page; absent on the last page" }) })
    .meta({ id, description: "One page of a list (spec: Endpoints > Paging)." });
}

/** The position after which the next page starts: newest-first lists order by (createdAt, id). */
export type Cursor = { createdAt: Date; id: string };

/**
 * The one cursor codec of every list: a position's values as base64url JSON, opaque to callers.
 * `read` answers the position the decoded array holds, or undefined when it is not one of this
 * list's; a cursor that does not decode to one answers 400 naming `query.cursor`.
 */
function encodePosition(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

function decodePosition<P>(cursor: string | undefined, read: (v: unknown[]) => P | undefined): P | undefined {
  if (cursor === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const position = Array.isArray(v) ? read(v) : undefined;
    if (position !== undefined) return position;
  } catch {
    // fall through to the error below
  }
  throw invalidValue("query.cursor", "is not a cursor this list returned");
}

export function encodeCursor(c: Cursor): string {
  return encodePosition([c.createdAt.toISOString(), c.id]);
}

export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  return decodePosition(cursor, (v) => {
    if (v.length !== 2 || typeof v[0] !== "string" || typeof v[1] !== "string") return undefined;
    const createdAt = new Date(v[0]);
    return !Number.isNaN(createdAt.getTime()) && v[1].length <= 128 ? { createdAt, id: v[1] } : undefined;
  });
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
  return encodePosition(["n", n]);
}

export function decodeNumberCursor(cursor: string | undefined): number | undefined {
  return decodePosition(cursor, (v) => (v.length === 2 && v[0] === "n" && Number.isSafeInteger(v[1]) ? (v[1] as number) : undefined));
}

/** A page of rows fetched with limit + 1, ordered by a number. */
export function toNumberPage<R, T>(rows: R[], limit: number, key: (r: R) => number, map: (r: R) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const page: Page<T> = { items: items.map(map) };
  if (rows.length > limit && last) page.nextCursor = encodeNumberCursor(key(last));
  return page;
}

/**
 * Paging by name (case ignored): a folder browser reads names in order, and names are unique in a
 * folder ignoring case, so the lower-cased name is a stable keyset position (the unique indexes
 * serve it).
 */
export type NameCursor = { key: string; id: string };

function encodeNameCursor(c: NameCursor): string {
  return encodePosition(["name", c.key, c.id]);
}

export function decodeNameCursor(cursor: string | undefined): NameCursor | undefined {
  return decodePosition(cursor, (v) =>
    v.length === 3 && v[0] === "name" && typeof v[1] === "string" && typeof v[2] === "string" && v[1].length <= 200 && v[2].length <= 128 ? { key: v[1], id: v[2] } : undefined,
  );
}

export function toNamePage<R extends { name: string; id: string }, T>(rows: R[], limit: number, map: (r: R) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const page: Page<T> = { items: items.map(map) };
  if (rows.length > limit && last) page.nextCursor = encodeNameCursor({ key: last.name.toLowerCase(), id: last.id });
  return page;
}

/** Lists ordered by an ID alone (the platform's workspaces, usage by workspace): the cursor is the last ID seen. */
export function encodeIdCursor(id: string): string {
  return encodePosition(["id", id]);
}

/** The ID of a cursor, when it matches `pattern` (the list's kind of ID). */
export function decodeIdCursor(cursor: string | undefined, pattern: RegExp): string | undefined {
  return decodePosition(cursor, (v) => (v.length === 2 && v[0] === "id" && typeof v[1] === "string" && pattern.test(v[1]) ? v[1] : undefined));
}
