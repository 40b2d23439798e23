import { z } from "zod";
import { PageQuery, pageOf } from "../paging";

/**
 * decisions.md: Usage and audit. The counters of a day, a range, or a workspace's range. Beyond the
 * shape fixed there: `testRenders` (ended test renders, any state) and `testPages` (pages of
 * succeeded test renders), which are also included in the other counters; `stringRenders` and
 * `htmlPreviews` (string renders and HTML previews that answered), which create no render and are
 * in no other counter.
 */
const counters = {
  rendersSucceeded: z.number().int(),
  rendersFailed: z.number().int(),
  rendersCancelled: z.number().int(),
  pages: z.number().int(),
  outputBytes: z.number().int(),
  testRenders: z.number().int(),
  testPages: z.number().int(),
  stringRenders: z.number().int().meta({ description: "POST /v1/renders/string requests that answered HTML; no render, so in no other counter" }),
  htmlPreviews: z.number().int().meta({ description: "Template previews answered as HTML; no render, so in no other counter" }),
};
export const UsageCounters = z.object(counters).meta({ id: "UsageCounters" });
export type UsageCounters = z.infer<typeof UsageCounters>;
const Day = z.string().meta({ description: "A date, YYYY-MM-DD (UTC)" });
export const Usage = z
  .object({ from: Day, to: Day, totals: UsageCounters, days: z.array(z.object({ date: Day, ...counters })) })
  .meta({ id: "Usage", description: "The workspace's usage from one day to another, in total and by day." });
export type Usage = z.infer<typeof Usage>;
export const WorkspaceUsage = z.object({ workspaceId: z.string(), name: z.string(), suspended: z.boolean(), ...counters }).meta({ id: "WorkspaceUsage" });
export type WorkspaceUsage = z.infer<typeof WorkspaceUsage>;
export const PlatformUsage = pageOf(WorkspaceUsage, "PlatformUsagePage").extend({ from: Day, to: Day }).meta({ id: "PlatformUsagePage", description: "Every workspace's usage over the days, a page at a time." });

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "is not a calendar date");

export const UsageQuery = z.strictObject({ from: IsoDate.optional(), to: IsoDate.optional() });
export type UsageQuery = z.infer<typeof UsageQuery>;
export const PlatformUsageQuery = PageQuery.extend(UsageQuery.shape);
export type PlatformUsageQuery = z.infer<typeof PlatformUsageQuery>;
