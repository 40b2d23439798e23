import { z } from "zod";
import { PageQuery, pageOf } from "../paging";

export const Workspace = z.object({ id: z.string(), name: z.string(), suspended: z.boolean(), createdAt: z.iso.datetime() });
export type Workspace = z.infer<typeof Workspace>;

/** spec: Resources > Render limits record. Counters read 0 until the capabilities that count them exist. */
export const RenderLimits = z
  .object({
    maxActiveRenders: z.number().int(),
    rendersPerMinute: z.number().int(),
    documentsPerMonth: z.number().int().nullable().meta({ description: "null: no monthly limit" }),
    maxStorageBytes: z.number().int().nullable(),
    testRendersPerDay: z.number().int().nullable(),
    documentsThisMonth: z.number().int(),
    storageBytes: z.number().int(),
    testRendersToday: z.number().int(),
    templateConversionsPerMonth: z.number().int().nullable(),
    templateConversionsThisMonth: z.number().int(),
    suspended: z.boolean(),
  })
  .meta({ id: "RenderLimits", description: "The workspace's render limits and how much of each is in use." });
export type RenderLimits = z.infer<typeof RenderLimits>;

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
export const PlatformWorkspace = Workspace.extend({ plan: z.string().nullable(), limits: RenderLimits }).meta({
  id: "PlatformWorkspace",
  description: "A workspace as the platform's administrators see it.",
});
export type PlatformWorkspace = z.infer<typeof PlatformWorkspace>;
export const PlatformWorkspacePage = pageOf(PlatformWorkspace, "PlatformWorkspacePage");

export const PlatformWorkspacesQuery = PageQuery.extend({ q: z.string().trim().min(1).max(120).optional() });
export type PlatformWorkspacesQuery = z.infer<typeof PlatformWorkspacesQuery>;

export const PlatformWorkspaceInput = LimitsInput.extend({
  suspended: z.boolean().optional(),
  plan: z.enum(["free", "starter", "pro", "business"]).nullable().optional(),
});
export type PlatformWorkspaceInput = z.infer<typeof PlatformWorkspaceInput>;
