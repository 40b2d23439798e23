/**
 * What exports read and imports write beyond the other modules' verbs: a workspace's templates,
 * files and assets in one read each, the one-at-a-time lock, and the rows an import adds.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { assets, templates, templateVersions, workspaceFiles } from "../db/schema";

/**
 * spec: Limits > Request rates: one import or export at a time per workspace. A try-lock held by
 * the caller's transaction: false when another import or export of the workspace holds it.
 */
export async function tryArchiveLock(ex: Executor, workspaceId: string): Promise<boolean> {
  const [r] = await ex.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(hashtextextended(${`folio.archive:${workspaceId}`}, 0)) as locked`);
  return r?.locked === true;
}

export function allTemplates(ex: Executor, workspaceId: string) {
  return ex
    .select({ id: templates.id, name: templates.name, kind: templates.kind, description: templates.description, folderId: templates.folderId, draft: templates.draft, draftRevision: templates.draftRevision })
    .from(templates)
    .where(eq(templates.workspaceId, workspaceId));
}

/** Every published version of the workspace's templates, oldest first per template. */
export function allVersions(ex: Executor, workspaceId: string) {
  return ex
    .select({ templateId: templateVersions.templateId, version: templateVersions.version, name: templateVersions.name, kind: templateVersions.kind, content: templateVersions.content })
    .from(templateVersions)
    .where(eq(templateVersions.workspaceId, workspaceId))
    .orderBy(templateVersions.templateId, templateVersions.version);
}

export function allFiles(ex: Executor, workspaceId: string) {
  return ex.select().from(workspaceFiles).where(eq(workspaceFiles.workspaceId, workspaceId));
}

export function assetsByIds(ex: Executor, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex
    .select({ id: assets.id, kind: assets.kind, filename: assets.filename, mediaType: assets.mediaType, size: assets.size, sha256: assets.sha256, state: assets.state })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), inArray(assets.id, ids)));
}

/** Ready assets of the workspace with these contents, by sha256 and kind (an import reuses them). */
export function readyAssetsBySha(ex: Executor, workspaceId: string, shas: string[]) {
  if (shas.length === 0) return Promise.resolve([]);
  return ex
    .select({ id: assets.id, kind: assets.kind, sha256: assets.sha256, createdAt: assets.createdAt })
    .from(assets)
    .where(and(eq(assets.workspaceId, workspaceId), eq(assets.state, "ready"), inArray(assets.sha256, shas)));
}
