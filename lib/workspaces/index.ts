import { recordAudit } from "../audit";
import { requireScope, systemCtx, type Ctx } from "../auth/context";
import { db, withTx } from "../db/client";
import { newId } from "../db/ids";
import type { WorkspaceRow } from "../db/schema";
import { storageBytes } from "../assets";
import { config } from "../config";
import { forbidden, notFound } from "../errors";
import { decodeIdCursor, encodeIdCursor, type Page } from "../paging";
import * as repo from "./repository";
import { LimitsInput, PlatformWorkspaceInput, WorkspaceName, type PlatformWorkspace, type PlatformWorkspacesQuery, type RenderLimits, type Workspace } from "./schemas";

export {
  LimitsInput,
  PlatformWorkspaceInput,
  PlatformWorkspacesQuery,
  WorkspaceName,
  type PlatformWorkspace,
  type RenderLimits,
  type Workspace,
} from "./schemas";

export const toWorkspace = (w: WorkspaceRow): Workspace => ({
  id: w.id,
  name: w.name,
  suspended: w.suspended,
  createdAt: w.createdAt.toISOString(),
});

/** Creates a workspace with the default allowances (spec: Limits > Render allowances). */
export async function createWorkspace(job: string, name: string): Promise<Workspace> {
  const valid = WorkspaceName.parse(name);
  return withTx(async (tx) => {
    const w = await repo.insertWorkspace(tx, { id: newId("ws"), name: valid });
    await recordAudit(tx, systemCtx(w.id, job), "workspace.create", { type: "workspace", id: w.id }, { name: valid });
    return toWorkspace(w);
  });
}

export async function listWorkspaces(): Promise<{ items: Workspace[] }> {
  return { items: (await repo.listWorkspaces(db())).map(toWorkspace) };
}

export async function getWorkspace(id: string): Promise<WorkspaceRow> {
  const w = await repo.findWorkspace(db(), id);
  if (!w) throw notFound("workspace", id);
  return w;
}

/** Renames ctx's workspace (admin:manage: owners and admins); audited with the old and new name. */
export async function renameWorkspace(ctx: Ctx, name: string): Promise<Workspace> {
  requireScope(ctx, "admin:manage", "rename the workspace");
  const valid = WorkspaceName.parse(name);
  return withTx(async (tx) => {
    const w = await repo.findWorkspace(tx, ctx.workspaceId, { forUpdate: true });
    if (!w) throw notFound("workspace", ctx.workspaceId);
    if (w.name === valid) return toWorkspace(w);
    const updated = await repo.updateWorkspace(tx, w.id, { name: valid });
    await recordAudit(tx, ctx, "workspace.rename", { type: "workspace", id: w.id }, { from: w.name, to: valid });
    return toWorkspace(updated);
  });
}

/** Suspends or reactivates a workspace; audited in its own history. */
export async function setSuspended(ctx: Ctx, suspended: boolean): Promise<Workspace> {
  return withTx(async (tx) => {
    const w = await repo.findWorkspace(tx, ctx.workspaceId, { forUpdate: true });
    if (!w) throw notFound("workspace", ctx.workspaceId);
    if (w.suspended === suspended) return toWorkspace(w);
    const updated = await repo.updateWorkspace(tx, w.id, { suspended });
    await recordAudit(tx, ctx, suspended ? "workspace.suspend" : "workspace.unsuspend", { type: "workspace", id: w.id });
    return toWorkspace(updated);
  });
}

/** Changes allowances (platform administrators only); applies to the next request; audited with old and new values. */
export async function setLimits(ctx: Ctx, input: LimitsInput): Promise<RenderLimits> {
  const v = LimitsInput.parse(input);
  await withTx(async (tx) => {
    const w = await repo.findWorkspace(tx, ctx.workspaceId, { forUpdate: true });
    if (!w) throw notFound("workspace", ctx.workspaceId);
    const changes = Object.fromEntries(Object.entries(v).filter(([k, val]) => val !== undefined && w[k as keyof LimitsInput] !== val));
    if (Object.keys(changes).length === 0) return;
    const before = Object.fromEntries(Object.keys(changes).map((k) => [k, w[k as keyof LimitsInput]]));
    await repo.updateWorkspace(tx, w.id, changes);
    await recordAudit(tx, ctx, "workspace.update_limits", { type: "workspace", id: w.id }, { before, after: changes });
  });
  return getRenderLimits(ctx.workspaceId);
}

/**
 * spec: Limits > Render allowances > Hosted plans. In hosted mode a workspace's plan sets the floor
 * of its maxActiveRenders and rendersPerMinute: the stored values apply when a platform
 * administrator set them higher (docs/api.md, Render allowances and quotas). The same table is in
 * folio_admit_renders (drizzle/0010_render_admission.sql), which enforces it.
 */
export const hostedPlans = {
  free: { maxActiveRenders: 10, rendersPerMinute: 60 },
  starter: { maxActiveRenders: 30, rendersPerMinute: 120 },
  pro: { maxActiveRenders: 50, rendersPerMinute: 300 },
  business: { maxActiveRenders: 100, rendersPerMinute: 1000 },
} as const;
export type HostedPlan = keyof typeof hostedPlans;

/** The allowances that apply to a workspace now: its own, raised to its plan's in hosted mode. */
export function effectiveAllowances(w: Pick<WorkspaceRow, "plan" | "maxActiveRenders" | "rendersPerMinute">) {
  const plan = config().DEPLOYMENT_MODE === "hosted" && w.plan ? hostedPlans[w.plan as HostedPlan] : undefined;
  return {
    maxActiveRenders: Math.max(w.maxActiveRenders, plan?.maxActiveRenders ?? 0),
    rendersPerMinute: Math.max(w.rendersPerMinute, plan?.rendersPerMinute ?? 0),
  };
}

/** The render limits record of a workspace, with what it uses now. */
export async function getRenderLimits(workspaceId: string): Promise<RenderLimits> {
  const w = await getWorkspace(workspaceId);
  const [counts, stored] = await Promise.all([repo.renderCounts(db(), workspaceId), storageBytes(db(), workspaceId)]);
  return {
    ...effectiveAllowances(w),
    documentsPerMonth: w.documentsPerMonth,
    maxStorageBytes: w.maxStorageBytes,
    testRendersPerDay: w.testRendersPerDay,
    documentsThisMonth: counts.documentsThisMonth,
    storageBytes: stored,
    testRendersToday: counts.testRendersToday,
    templateConversionsPerMonth: w.templateConversionsPerMonth,
    // why: template conversions (PDF into template) do not exist yet; nothing counts them.
    templateConversionsThisMonth: 0,
    suspended: w.suspended,
  };
}

/** GET /v1/render-limits (render:read): ctx's workspace's record. */
export async function readRenderLimits(ctx: Ctx): Promise<RenderLimits> {
  requireScope(ctx, "render:read", "read the render limits");
  return getRenderLimits(ctx.workspaceId);
}

/** What the console's meters show: the record plus the renders active now and created in the last minute. */
export async function renderLimitsInUse(ctx: Ctx): Promise<RenderLimits & { activeRenders: number; rendersLastMinute: number }> {
  const [limits, now] = await Promise.all([readRenderLimits(ctx), repo.activeCounts(db(), ctx.workspaceId)]);
  return { ...limits, activeRenders: now.active, rendersLastMinute: now.lastMinute };
}

/** Platform administrators are users with the platform-admin flag, signed in to the console (decisions.md). */
export function requirePlatformAdmin(ctx: Ctx) {
  if (ctx.actor.type === "user" && ctx.actor.platformAdmin) return;
  throw forbidden("Only platform administrators, signed in to the console, can do this");
}

/** A page of workspaces by ID starts after this one (lib/paging.ts's ID cursor, of workspace IDs only). */
export const decodeWorkspaceCursor = (cursor: string | undefined) => decodeIdCursor(cursor, /^ws_[A-Za-z0-9]{1,64}$/);

/**
 * GET /v1/platform/workspaces (platform administrators): a page of every workspace, by id, with its
 * limits. `q` keeps the workspace with that id and those whose name contains it, ignoring case.
 */
export async function listPlatformWorkspaces(ctx: Ctx, query: PlatformWorkspacesQuery): Promise<Page<PlatformWorkspace>> {
  requirePlatformAdmin(ctx);
  const rows = await repo.pageWorkspaces(db(), query.limit, decodeWorkspaceCursor(query.cursor), query.q);
  const items = await Promise.all(rows.slice(0, query.limit).map(async (w) => ({ ...toWorkspace(w), plan: w.plan, limits: await getRenderLimits(w.id) })));
  const page: Page<PlatformWorkspace> = { items };
  if (rows.length > query.limit) page.nextCursor = encodeIdCursor(items[items.length - 1]!.id);
  return page;
}

/**
 * PATCH /v1/platform/workspaces/{id} (platform administrators): allowances, plan and suspended,
 * each change audited in the workspace's own history (who: the administrator).
 */
export async function updatePlatformWorkspace(ctx: Ctx, id: string, input: PlatformWorkspaceInput): Promise<PlatformWorkspace> {
  requirePlatformAdmin(ctx);
  const { suspended, plan, ...limits } = PlatformWorkspaceInput.parse(input);
  const target: Ctx = { ...ctx, workspaceId: id };
  await getWorkspace(id);
  if (Object.values(limits).some((v) => v !== undefined)) await setLimits(target, limits);
  if (plan !== undefined) await setPlan(target, plan);
  if (suspended !== undefined) await setSuspended(target, suspended);
  const w = await getWorkspace(id);
  return { ...toWorkspace(w), plan: w.plan, limits: await getRenderLimits(id) };
}

async function setPlan(ctx: Ctx, plan: string | null) {
  await withTx(async (tx) => {
    const w = await repo.findWorkspace(tx, ctx.workspaceId, { forUpdate: true });
    if (!w) throw notFound("workspace", ctx.workspaceId);
    if (w.plan === plan) return;
    await repo.updateWorkspace(tx, w.id, { plan });
    await recordAudit(tx, ctx, "workspace.update_plan", { type: "workspace", id: w.id }, { from: w.plan, to: plan });
  });
}
