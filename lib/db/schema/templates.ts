import { boolean, index, integer, json, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { workspaceFolders } from "./workspace-files";
import { workspaces } from "./workspaces";

export const templateKinds = ["component", "handlebars", "workbook"] as const;
export type TemplateKind = (typeof templateKinds)[number];

/** A template and its current draft (spec: Template; decisions.md: Templates). */
export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    kind: text("kind", { enum: templateKinds }).notNull().default("component"),
    /** The folder it lives in (null: the workspace's root); its stylesheet paths resolve from there. */
    folderId: text("folder_id").references(() => workspaceFolders.id),
    /**
     * The draft's content; every save bumps draftRevision and keeps a copy in template_revisions.
     * why json, not jsonb (here, in revisions and in versions): json keeps the text as saved, so
     * sample data and translations come back with their keys in the author's order (jsonb sorts
     * them); queries that look inside cast it (`::jsonb`).
     */
    draft: json("draft").$type<Record<string, unknown>>().notNull(),
    draftRevision: integer("draft_revision").notNull().default(1),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("templates_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index("templates_workspace_name_idx").on(t.workspaceId, t.name),
  ],
);

/** Every saved draft, numbered from 1: the revision history. */
export const templateRevisions = pgTable(
  "template_revisions",
  {
    id: text("id").primaryKey(),
    templateId: text("template_id").notNull().references(() => templates.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    content: json("content").$type<Record<string, unknown>>().notNull(),
    actorType: text("actor_type", { enum: ["user", "apiKey", "system"] }).notNull(),
    actorId: text("actor_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("template_revisions_template_revision_idx").on(t.templateId, t.revision)],
);

/** Published versions: immutable copies of a draft revision, numbered from 1 per template. */
export const templateVersions = pgTable(
  "template_versions",
  {
    id: text("id").primaryKey(),
    templateId: text("template_id").notNull().references(() => templates.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    version: integer("version").notNull(),
    /** The draft revision it was published from. */
    revision: integer("revision").notNull(),
    /** The template's name and kind when published: renaming later does not change the version. */
    name: text("name").notNull(),
    kind: text("kind", { enum: templateKinds }).notNull(),
    content: json("content").$type<Record<string, unknown>>().notNull(),
    /**
     * What the version copied when published (spec Versioning 5): the stylesheets' text and the
     * blobs of its images and fonts, so later edits or deletions of workspace files and assets
     * change no published version. Null for versions published before files existed.
     */
    resources: jsonb("resources").$type<Record<string, unknown>>(),
    /**
     * Whether its content differs from the version before it only in content field values
     * (contentValues), as content editors may publish (issue 25); false for a first version and
     * for versions published before the flag existed.
     */
    contentOnly: boolean("content_only").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("template_versions_template_version_idx").on(t.templateId, t.version),
    index("template_versions_workspace_idx").on(t.workspaceId),
  ],
);

/** The blobs a published version copied (spec Versioning 5): they stay while the version exists. */
export const templateVersionBlobs = pgTable(
  "template_version_blobs",
  {
    versionId: text("version_id").notNull().references(() => templateVersions.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    sha256: text("sha256").notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.sha256] }), index("template_version_blobs_blob_idx").on(t.workspaceId, t.sha256)],
);

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateRevisionRow = typeof templateRevisions.$inferSelect;
export type TemplateVersionRow = typeof templateVersions.$inferSelect;
