import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { workspaces } from "./workspaces";

export const templateKinds = ["component", "handlebars"] as const;
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
    /** The draft's content; every save bumps draftRevision and keeps a copy in template_revisions. */
    draft: jsonb("draft").$type<Record<string, unknown>>().notNull(),
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
    content: jsonb("content").$type<Record<string, unknown>>().notNull(),
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
    content: jsonb("content").$type<Record<string, unknown>>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("template_versions_template_version_idx").on(t.templateId, t.version),
    index("template_versions_workspace_idx").on(t.workspaceId),
  ],
);

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateRevisionRow = typeof templateRevisions.$inferSelect;
export type TemplateVersionRow = typeof templateVersions.$inferSelect;
