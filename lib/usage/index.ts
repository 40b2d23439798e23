import { requireScope, type Ctx } from "../auth/context";
import { db } from "../db/client";
import { invalidValue, limitExceeded } from "../errors";
import { log } from "../log";
import { encodeIdCursor, type Page } from "../paging";
import { decodeWorkspaceCursor, requirePlatformAdmin } from "../workspaces";
import * as repo from "./repository";
import type { PlatformUsageQuery, Usage, UsageCounters, UsageQuery, WorkspaceUsage } from "./schemas";

export { PlatformUsageQuery, UsageQuery, type Usage, type UsageCounters, type WorkspaceUsage } from "./schemas";

const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The range of a usage query: both days included; by default the current UTC month (a missing
 * `from` is the 1st of `to`'s month, a missing `to` the last day of `from`'s month). 400 when
 * `from` is after `to`, 400 LIMIT_EXCEEDED over 366 days.
 */
export function usageRange(q: UsageQuery, now = new Date()): { from: string; to: string } {
  const anchor = q.from ?? q.to ?? isoDay(now);
  const [y, m] = anchor.split("-").map(Number) as [number, number];
  const from = q.from ?? `${anchor.slice(0, 7)}-01`;
  const to = q.to ?? isoDay(new Date(Date.UTC(y, m, 0)));
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw invalidValue("query.from", `must not be after to (${to})`);
  if (days > MAX_DAYS) throw limitExceeded(`The range from ${from} to ${to} has ${days} days; at most ${MAX_DAYS}`, { details: [{ path: "query.to", message: `at most ${MAX_DAYS} days after from` }] });
  return { from, to };
}

const zero = (): UsageCounters => ({ rendersSucceeded: 0, rendersFailed: 0, rendersCancelled: 0, pages: 0, outputBytes: 0, testRenders: 0, testPages: 0, stringRenders: 0, htmlPreviews: 0 });

/** A repository row's counters as numbers (bigint sums arrive as strings). */
const counters = (r: Record<keyof UsageCounters, number | string>): UsageCounters => ({
  rendersSucceeded: Number(r.rendersSucceeded),
  rendersFailed: Number(r.rendersFailed),
  rendersCancelled: Number(r.rendersCancelled),
  pages: Number(r.pages),
  outputBytes: Number(r.outputBytes),
  testRenders: Number(r.testRenders),
  testPages: Number(r.testPages),
  stringRenders: Number(r.stringRenders),
  htmlPreviews: Number(r.htmlPreviews),
});

/**
 * Counts an answer that expanded a template into HTML but created no render (spec: What counts:
 * a string render or an HTML preview counts against no allowance) on today's usage row, so the
 * owner sees that use. Call it once the answer is ready: a refused request is not counted. Never
 * throws: a count that cannot be written is logged, and the answer goes out as it would have.
 */
export async function countAnswer(ctx: Ctx, counter: repo.AnswerCounter): Promise<void> {
  // why awaited, not left running: one upsert is a round trip like the key lookup every request
  // already makes, and the caller's next GET /v1/usage then shows it.
  try {
    await repo.countAnswer(db(), ctx.workspaceId, counter);
  } catch (err) {
    log().warn({ err, workspaceId: ctx.workspaceId, counter, requestId: ctx.requestId }, "could not count usage");
  }
}

/** GET /v1/usage (usage:read): the range's totals and its days with usage, oldest first. */
export async function getUsage(ctx: Ctx, query: UsageQuery): Promise<Usage> {
  requireScope(ctx, "usage:read");
  const { from, to } = usageRange(query);
  const rows = await repo.usageDaysOf(db(), ctx.workspaceId, from, to);
  const totals = zero();
  const days = rows.map((r) => {
    const day = { date: r.date, ...counters(r) };
    for (const k of Object.keys(totals) as (keyof UsageCounters)[]) totals[k] += day[k];
    return day;
  });
  return { from, to, totals, days };
}

/** GET /v1/platform/usage (platform administrators): one page of workspaces with usage in the range, by workspace id. */
export async function platformUsage(ctx: Ctx, query: PlatformUsageQuery): Promise<Page<WorkspaceUsage> & { from: string; to: string }> {
  requirePlatformAdmin(ctx);
  const { from, to } = usageRange(query);
  const rows = await repo.usageByWorkspace(db(), from, to, query.limit, decodeWorkspaceCursor(query.cursor));
  const items = rows.slice(0, query.limit).map((r) => ({
    workspaceId: r.workspaceId,
    name: r.name,
    suspended: r.suspended,
    ...counters(r),
  }));
  const page: Page<WorkspaceUsage> & { from: string; to: string } = { from, to, items };
  if (rows.length > query.limit) page.nextCursor = encodeIdCursor(items[items.length - 1]!.workspaceId);
  return page;
}


/**
 * The usage in the query's range of each of these workspaces (platform administrators; the console's
 * Platform page, whose list may be a search): zero counters for one without usage then.
 */
export async function usageOfWorkspaces(ctx: Ctx, ids: string[], query: UsageQuery): Promise<{ from: string; to: string; byId: Map<string, UsageCounters> }> {
  requirePlatformAdmin(ctx);
  const { from, to } = usageRange(query);
  const byId = new Map(ids.map((id) => [id, zero()]));
  if (ids.length) for (const r of await repo.usageOfWorkspaces(db(), ids, from, to)) byId.set(r.workspaceId, counters(r));
  return { from, to, byId };
}
