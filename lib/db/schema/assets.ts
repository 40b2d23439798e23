import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { workspaces } from "./workspaces";

/** spec: Asset (uploaded file), its kinds and the media types each allows. */
export const assetKinds = ["image", "svg", "font", "stylesheet", "workbook"] as const;
export type AssetKind = (typeof assetKinds)[number];
export const assetStates = ["pending", "ready"] as const;
export type AssetState = (typeof assetStates)[number];

/**
 * Stored bytes: one row per distinct content (sha256) per workspace, under the store key
 * `assets/<workspaceId>/<sha256>`. Assets and published versions point at blobs, so a file that
 * several of them use is stored and counted once (spec: maxStorageBytes "each once"); a blob
 * nobody points at any more is deleted.
 */
export const assetBlobs = pgTable(
  "asset_blobs",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    mediaType: text("media_type").notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.sha256] })],
);

/**
 * An uploaded file. Registered `pending` (POST /v1/assets), `ready` once its bytes arrived through
 * the signed upload link and matched the registered size and sha256.
 */
export const assets = pgTable(
  "assets",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: assetKinds }).notNull(),
    filename: text("filename").notNull(),
    mediaType: text("media_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    state: text("state", { enum: assetStates }).notNull().default("pending"),
    createdByType: text("created_by_type", { enum: ["user", "apiKey", "system"] }).notNull(),
    createdById: text("created_by_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    uploadedAt: ts("uploaded_at"),
  },
  (t) => [
    index("assets_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index("assets_workspace_sha_idx").on(t.workspaceId, t.sha256),
    index("assets_pending_idx").on(t.createdAt).where(sql`state = 'pending'`),
  ],
);

export type AssetRow = typeof assets.$inferSelect;
export type AssetBlobRow = typeof assetBlobs.$inferSelect;
