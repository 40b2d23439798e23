import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { systemCtx } from "../auth/context";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { assets } from "../db/schema";
import * as files from "../workspace-files";
import type { TestWorkspace } from "./factories";
import { api } from "./http";

export type Folder = { id: string; name: string; parentId?: string; path: string; createdAt: string; updatedAt: string };
export type WorkspaceFile = {
  id: string;
  name: string;
  folderId?: string;
  path: string;
  kind: "text" | "asset";
  mediaType: string;
  size: number;
  revision: number;
  assetId?: string;
  createdAt: string;
  updatedAt: string;
  updatedBy: { type: string; id: string };
  content?: string;
};
export type Page<T> = { items: T[]; nextCursor?: string };
export type Detail = { path?: string; message: string };

/** Creates a folder over HTTP with the workspace's key; asserts 201. */
export async function newFolder(w: TestWorkspace, name: string, parentId?: string): Promise<Folder> {
  const res = await api<Folder>("/v1/workspace-folders", { key: w.key, body: parentId ? { name, parentId } : { name } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Creates a text file over HTTP; asserts 201. */
export async function newTextFile(w: TestWorkspace, name: string, content: string, folderId?: string): Promise<WorkspaceFile> {
  const res = await api<WorkspaceFile>("/v1/workspace-files", { key: w.key, body: { name, content, ...(folderId ? { folderId } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A folder made through the verb (security cases run with keys that may be revoked). */
export const folderDirect = (w: TestWorkspace, name = `f-${randomBytes(3).toString("hex")}`) => files.createFolder(systemCtx(w.id, "test"), { name });

/** A stylesheet made through the verb. */
export const fileDirect = (w: TestWorkspace, name = `s-${randomBytes(3).toString("hex")}.css`, content = "a{}") =>
  files.createFile(systemCtx(w.id, "test"), { name, content });

/**
 * An asset row as an upload leaves it (ready, or pending when asked), written directly: these
 * tests are about files that point at assets, not about the upload itself.
 */
export async function seedAsset(w: TestWorkspace, opts: { mediaType?: string; kind?: "image" | "font" | "svg" | "stylesheet"; size?: number; state?: "ready" | "pending"; filename?: string } = {}) {
  const sha256 = createHash("sha256").update(randomBytes(16)).digest("hex");
  const id = newId("ast");
  await db()
    .insert(assets)
    .values({
      id,
      workspaceId: w.id,
      kind: opts.kind ?? "font",
      filename: opts.filename ?? "Inter.woff2",
      mediaType: opts.mediaType ?? "font/woff2",
      size: opts.size ?? 1234,
      sha256,
      state: opts.state ?? "ready",
      createdByType: "system",
      createdById: "test",
      uploadedAt: opts.state === "pending" ? null : new Date(),
    });
  return { id, sha256 };
}
