import { db, rawSql } from "../db/client";
import type { TemplateVersionRow } from "../db/schema";
import { log } from "../log";
import * as repo from "./repository";

/**
 * Published versions kept in this process for renders (docs/architecture.md, "Published versions in
 * memory"). A version never changes once published; it can only be deleted, with its template or
 * its workspace. Every deleting statement sends `folio_versions_deleted` (migration 0021), and a
 * process that hears it forgets all it holds; a delete made in this process forgets at once.
 * Until the listener is in place, and after it fails, every read goes to the database.
 */
const CHANNEL = "folio_versions_deleted";
/** Text of the versions' content kept in all (least recently used first), and the largest one kept. */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

type Entry = { row: TemplateVersionRow; bytes: number };
type State = { rows: Map<string, Entry>; bytes: number; generation: number; listening?: Promise<boolean> };
const globalKey = Symbol.for("folio.versionCache");
// why on globalThis: Next.js may load this module once per route bundle; one process keeps one cache.
const state: State = ((globalThis as unknown as Record<symbol, State>)[globalKey] ??= { rows: new Map(), bytes: 0, generation: 0 });

/** Forgets every version held (a deletion here or anywhere, or a listener that reconnected and may have missed one). */
export function forgetVersions() {
  state.rows.clear();
  state.bytes = 0;
  state.generation++;
}

function listen(): Promise<boolean> {
  state.listening ??= rawSql()
    .listen(CHANNEL, () => forgetVersions(), () => forgetVersions())
    .then(
      () => true,
      (err: unknown) => {
        state.listening = undefined;
        log().error({ err }, "could not listen for deleted template versions; versions are read each time");
        return false;
      },
    );
  return state.listening;
}

/** The workspace's version `id`, from memory or the database (undefined when there is none). */
export async function findVersionCached(workspaceId: string, id: string): Promise<TemplateVersionRow | undefined> {
  const listening = await listen();
  const held = state.rows.get(id);
  if (held && held.row.workspaceId === workspaceId) {
    state.rows.delete(id);
    state.rows.set(id, held);
    return held.row;
  }
  const generation = state.generation;
  const row = await repo.findVersion(db(), workspaceId, id);
  // why the generation: a deletion heard while the row was read may be of this very version.
  if (!row || !listening || generation !== state.generation) return row;
  const bytes = JSON.stringify(row.content).length + JSON.stringify(row.resources ?? null).length;
  if (bytes > MAX_ENTRY_BYTES) return row;
  state.rows.set(id, { row, bytes });
  state.bytes += bytes;
  for (const [key, old] of state.rows) {
    if (state.bytes <= MAX_BYTES) break;
    state.rows.delete(key);
    state.bytes -= old.bytes;
  }
  return row;
}
