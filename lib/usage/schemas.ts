import { z } from "zod";
import { PageQuery } from "../paging";

/**
 * decisions.md: Usage and audit. The counters of a day, a range, or a workspace's range. Beyond the
 * shape fixed there: `testRenders` (ended test renders, any state) and `testPages` (pages of
 * succeeded test renders), which are also included in the other counters.
 */
export type UsageCounters = {
  rendersSucceeded: number;
  rendersFailed: number;
  rendersCancelled: number;
  pages: number;
  outputBytes: number;
  testRenders: number;
  testPages: number;
};
export type Usage = { from: string; to: string; totals: UsageCounters; days: ({ date: string } & UsageCounters)[] };
export type WorkspaceUsage = { workspaceId: string; name: string; suspended: boolean } & UsageCounters;

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "is not a calendar date");

export const UsageQuery = z.strictObject({ from: IsoDate.optional(), to: IsoDate.optional() });
export type UsageQuery = z.infer<typeof UsageQuery>;
export const PlatformUsageQuery = PageQuery.extend(UsageQuery.shape);
export type PlatformUsageQuery = z.infer<typeof PlatformUsageQuery>;
