import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { assets } from "./assets";
import { workspaces } from "./workspaces";

/**
 * Workspace folders (decisions.md: Assets, folders, files). A null parent is the workspace's root.
 * Names are unique in their parent ignoring case, and a folder holding anything cannot be deleted.
 */
export const workspaceFolders = pgTable(
  "workspace_folders",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    parentId: text("parent_id").references((): AnyPgColumn => workspaceFolders.id),
    name: text("name").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("workspace_folders_name_key").on(t.workspaceId, sql`coalesce(${t.parentId}, '')`, sql`lower(${t.name})`),
    index("workspace_folders_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const workspaceFileKinds = ["text", "asset"] as const;
export type WorkspaceFileKind = (typeof workspaceFileKinds)[number];

/**
 * A workspace file: a text file (stylesheets now; partials and helpers later) saved with
 * expectedRevision, or a name for an uploaded asset (fonts, images, stylesheets) in a folder.
 */
export const workspaceFiles = pgTable(
  "workspace_files",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    folderId: text("folder_id").references(() => workspaceFolders.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: workspaceFileKinds }).notNull(),
    /** Text files: the content, up to 1,000,000 characters. */
    content: text("content"),
    /** Asset-backed files: the asset (deleting it is refused while a file uses it). */
    assetId: text("asset_id").references(() => assets.id),
    mediaType: text("media_type").notNull(),
    /** Bytes: UTF-8 length of a text file, the asset's size for an asset-backed one. */
    size: bigint("size", { mode: "number" }).notNull(),
    revision: integer("revision").notNull().default(1),
    updatedByType: text("updated_by_type", { enum: ["user", "apiKey", "system"] }).notNull(),
    updatedById: text("updated_by_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("workspace_files_name_key").on(t.workspaceId, sql`coalesce(${t.folderId}, '')`, sql`lower(${t.name})`),
    index("workspace_files_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index("workspace_files_asset_idx").on(t.assetId),
  ],
);

export type WorkspaceFolderRow = typeof workspaceFolders.$inferSelect;
export type WorkspaceFileRow = typeof workspaceFiles.$inferSelect;
