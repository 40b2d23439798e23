import { z } from "zod";
import { recordAudit } from "../audit";
import { requireScope, systemCtx, type Ctx } from "../auth/context";
import { db, withTx } from "../db/client";
import { newId } from "../db/ids";
import type { WorkspaceRow } from "../db/schema";
import { notFound } from "../errors";
import * as repo from "./repository";

export type Workspace = { id: string; name: string; suspended: boolean; createdAt: string };

export const toWorkspace = (w: WorkspaceRow): Workspace => ({
  id: w.id,
  name: w.name,
  suspended: w.suspended,
  createdAt: w.createdAt.toISOString(),
});

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

export const LimitsInput = z.strictObject({
  maxActiveRenders: z.number().int().min(1).max(100_000).optional(),
  rendersPerMinute: z.number().int().min(1).max(1_000_000).optional(),
  documentsPerMonth: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
  maxStorageBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  testRendersPerDay: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
  templateConversionsPerMonth: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
});
export type LimitsInput = z.infer<typeof LimitsInput>;

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

/** The render limits record of a workspace. */
export async function getRenderLimits(workspaceId: string): Promise<RenderLimits> {
  const w = await getWorkspace(workspaceId);
  return {
    maxActiveRenders: w.maxActiveRenders,
    rendersPerMinute: w.rendersPerMinute,
    documentsPerMonth: w.documentsPerMonth,
    maxStorageBytes: w.maxStorageBytes,
    testRendersPerDay: w.testRendersPerDay,
    documentsThisMonth: 0,
    storageBytes: 0,
    testRendersToday: 0,
    templateConversionsPerMonth: w.templateConversionsPerMonth,
    templateConversionsThisMonth: 0,
    suspended: w.suspended,
  };
}
