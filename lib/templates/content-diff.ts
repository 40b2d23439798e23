// Which lines differ between a published version's content and the draft. Pure: the browser imports it.
// why canonical JSON: the stored draft and a version come back from jsonb, whose key order is not the
// order they were written in (Postgres sorts object keys by length, then bytes), while the editor's draft
// keeps the order typed; comparing text would show a whole settings block removed and added again.
import { diffLines } from "diff";

/** JSON with every object's keys sorted and two-space indents, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** One run of lines: only in the version (removed), only in the draft (added), or in both. */
export type DiffPart = { value: string; added: boolean; removed: boolean };

/** The content's changes from `version` to `draft`; `same` when they hold the same content, whatever the key order. */
export function contentChanges(version: unknown, draft: unknown): { same: true } | { same: false; parts: DiffPart[] } {
  const before = canonicalJson(version);
  const after = canonicalJson(draft);
  if (before === after) return { same: true };
  return { same: false, parts: diffLines(before, after).map((p) => ({ value: p.value, added: !!p.added, removed: !!p.removed })) };
}
