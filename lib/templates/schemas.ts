import { z } from "zod";
import { PageQuery, pageOf } from "../paging";
import { templateKinds } from "../db/schema/templates";

export const TemplateName = z.string().min(1).max(120);
export const TemplateDescription = z.string().max(2000);

export const CreateTemplateInput = z.strictObject({
  name: TemplateName,
  description: TemplateDescription.optional(),
  kind: z.enum(templateKinds).optional(),
  /** The folder it lives in (its stylesheet paths resolve from there); absent or null: the root. */
  folderId: z.string().min(1).max(128).nullable().optional(),
  content: z.unknown(),
});
export type CreateTemplateInput = z.infer<typeof CreateTemplateInput>;

export const UpdateTemplateInput = z
  .strictObject({ name: TemplateName.optional(), description: TemplateDescription.optional(), folderId: z.string().min(1).max(128).nullable().optional() })
  .refine((b) => b.name !== undefined || b.description !== undefined || b.folderId !== undefined, "send name, description, folderId (null for the root), or several");
export type UpdateTemplateInput = z.infer<typeof UpdateTemplateInput>;

/** GET /v1/templates: paging plus `q`, a case-insensitive part of the name, and `folderId` (a folder, or `root`). */
export const ListTemplatesQuery = PageQuery.extend({ q: z.string().min(1).max(120).optional(), folderId: z.string().min(1).max(128).optional() });
export type ListTemplatesQuery = z.infer<typeof ListTemplatesQuery>;

export const SaveDraftInput = z.strictObject({ content: z.unknown(), expectedRevision: z.number().int().min(1) });
export const PublishInput = z.strictObject({ expectedRevision: z.number().int().min(1) });
export const DeleteTemplatesInput = z.strictObject({ ids: z.array(z.string().min(1).max(128)).min(1).max(100) });

const Timestamp = z.iso.datetime();
const Kind = z.enum(templateKinds);
const Content = z.record(z.string(), z.unknown()).meta({ description: "The template's content: a component template's tree, a Handlebars template's source and settings, or a workbook template's workbook and code (GET /v1/templates/schema)" });

/** Who saved a revision: a person (name when set, email), an API key (its name), or the system (the CLI, a job). */
export const Editor = z
  .object({ type: z.enum(["user", "apiKey", "system"]), id: z.string(), name: z.string().optional(), email: z.string().optional() })
  .meta({ id: "Editor", description: "Who saved: a person (name when set, email), an API key (its name), or the system." });
export type Editor = z.infer<typeof Editor>;

export const Template = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    kind: Kind,
    /** The workspace folder it lives in; absent: the root. */
    folderId: z.string().optional().meta({ description: "The workspace folder it lives in; absent: the root" }),
    draftRevision: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    draft: Content.optional(),
    /** When the current draft revision was saved, and by whom. */
    lastEditedAt: Timestamp.optional(),
    lastEditedBy: Editor.optional(),
    /** The newest published version's number; absent until the first publish. */
    publishedVersion: z.number().int().optional().meta({ description: "The newest published version's number; absent until the first publish" }),
  })
  .meta({ id: "Template", description: "A template: its name, kind, draft revision and newest published version." });
export type Template = z.infer<typeof Template>;
export const TemplatePage = pageOf(Template, "TemplatePage");

export const Draft = z
  .object({ templateId: z.string(), draftRevision: z.number().int(), content: Content, updatedAt: Timestamp })
  .meta({ id: "Draft", description: "A template's current draft; saves name the revision they change (expectedRevision)." });
export type Draft = z.infer<typeof Draft>;

export const Revision = z
  .object({ id: z.string(), templateId: z.string(), revision: z.number().int(), content: Content, createdAt: Timestamp, actor: z.object({ type: z.string(), id: z.string() }) })
  .meta({ id: "Revision", description: "One saved revision of a template's draft." });
export type Revision = z.infer<typeof Revision>;
export const RevisionPage = pageOf(Revision, "RevisionPage");

export const TemplateVersion = z
  .object({
    id: z.string(),
    templateId: z.string(),
    version: z.number().int(),
    revision: z.number().int(),
    name: z.string(),
    kind: Kind,
    /** Whether it changed only content field values from the version before it (issue 25). */
    contentOnly: z.boolean().meta({ description: "Whether it changed only content field values from the version before it" }),
    createdAt: Timestamp,
    content: Content.optional(),
  })
  .meta({ id: "TemplateVersion", description: "A published, unchangeable version of a template; renders name it by id." });
export type TemplateVersion = z.infer<typeof TemplateVersion>;
export const TemplateVersionPage = pageOf(TemplateVersion, "TemplateVersionPage");

/** A JSON Schema document (a template's data schema; {} when it declares none: any data object). */
export const JsonSchemaDocument = z.record(z.string(), z.unknown()).meta({ id: "JsonSchema", description: "A JSON Schema (draft 2020-12)" });
