import { z } from "zod";
import { PageQuery } from "../paging";

export type Workspace = { id: string; name: string; suspended: boolean; createdAt: string };

/** spec: Resources > Render limits record. Counters read 0 until the capabilities that count them exist. */
export type RenderLimits = {
  maxActiveRenders: number;
  rendersPerMinute: number;
  documentsPerMonth: number | null;
  maxStorageBytes: number | null;
  testRendersPerDay: number | null;
  documentsThisMonth: number;
  storageBytes: number;
  testRendersToday: number;
  templateConversionsPerMonth: number | null;
  templateConversionsThisMonth: number;
  suspended: boolean;
};

export const WorkspaceName = z.string().trim().min(1).max(120);

/**
 * A whole-number allowance from `min` to `max`. Every way a value can miss (not a number, not
 * whole, out of range) gets the one message naming the bounds: the API's details[] and the
 * platform page's field both show it, so people read the rule rather than zod's wording.
 */
function allowance(min: number, max: number, unit = "") {
  const error = `must be a whole number${unit} from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

export const LimitsInput = z.strictObject({
  maxActiveRenders: allowance(1, 100_000).optional(),
  rendersPerMinute: allowance(1, 1_000_000).optional(),
  documentsPerMonth: allowance(0, 1_000_000_000).nullable().optional(),
  maxStorageBytes: allowance(0, Number.MAX_SAFE_INTEGER, " of bytes").nullable().optional(),
  testRendersPerDay: allowance(0, 1_000_000_000).nullable().optional(),
  templateConversionsPerMonth: allowance(0, 1_000_000_000).nullable().optional(),
});
export type LimitsInput = z.infer<typeof LimitsInput>;

/** A workspace as platform administrators see it: its record and its render limits. */
export type PlatformWorkspace = Workspace & { plan: string | null; limits: RenderLimits };

export const PlatformWorkspacesQuery = PageQuery.extend({ q: z.string().trim().min(1).max(120).optional() });
export type PlatformWorkspacesQuery = z.infer<typeof PlatformWorkspacesQuery>;

export const PlatformWorkspaceInput = LimitsInput.extend({
  suspended: z.boolean().optional(),
  plan: z.enum(["free", "starter", "pro", "business"]).nullable().optional(),
});
export type PlatformWorkspaceInput = z.infer<typeof PlatformWorkspaceInput>;
