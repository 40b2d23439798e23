import { z } from "zod";
import { PageQuery } from "../paging";

export const TemplateName = z.string().min(1).max(120);
export const TemplateDescription = z.string().max(2000);

export const CreateTemplateInput = z.strictObject({
  name: TemplateName,
  description: TemplateDescription.optional(),
  kind: z.enum(["component", "handlebars"]).optional(),
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

export type Template = {
  id: string;
  name: string;
  description: string;
  kind: "component" | "handlebars";
  /** The workspace folder it lives in; absent: the root. */
  folderId?: string;
  draftRevision: number;
  createdAt: string;
  updatedAt: string;
  draft?: Record<string, unknown>;
  /** When the current draft revision was saved, and by whom. */
  lastEditedAt?: string;
  lastEditedBy?: Editor;
  /** The newest published version's number; absent until the first publish. */
  publishedVersion?: number;
};
/** Who saved a revision: a person (name when set, email), an API key (its name), or the system (the CLI, a job). */
export type Editor = { type: "user" | "apiKey" | "system"; id: string; name?: string; email?: string };
export type Draft = { templateId: string; draftRevision: number; content: Record<string, unknown>; updatedAt: string };
export type Revision = {
  id: string;
  templateId: string;
  revision: number;
  content: Record<string, unknown>;
  createdAt: string;
  actor: { type: string; id: string };
};
export type TemplateVersion = {
  id: string;
  templateId: string;
  version: number;
  revision: number;
  name: string;
  kind: "component" | "handlebars";
  /** Whether it changed only content field values from the version before it (issue 25). */
  contentOnly: boolean;
  createdAt: string;
  content?: Record<string, unknown>;
};
