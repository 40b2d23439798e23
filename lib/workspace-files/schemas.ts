/**
 * Inputs and answers of workspace folders and files (decisions.md: Assets, folders, files; spec:
 * Limits > Templates and workspace files). Names are checked by `nameProblem` (paths.ts), so the
 * rules that resolve paths and the rules that make names are one.
 */
import { z } from "zod";
import { PageQuery, pageOf } from "../paging";
import { MAX_FILE_NAME, MAX_FOLDER_NAME, nameProblem } from "./paths";

/** spec: Limits > Workspace file: 1,000,000 characters. */
export const MAX_TEXT_FILE_CHARS = 1_000_000;

/** Details of a refusal list at most this many users or contents, then say how many more. */
export const MAX_LISTED = 20;

const named = (max: number) =>
  z.string().superRefine((name, ctx) => {
    const problem = nameProblem(name, max);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const FolderName = named(MAX_FOLDER_NAME);
export const FileName = named(MAX_FILE_NAME);

const Id = z.string().min(1).max(128);

/** A folder filter of a list: a folder ID, or `root` (the same as leaving it out) for the workspace's root. */
export const FolderFilter = Id;
export const ROOT = "root";

export const CreateFolderInput = z.strictObject({ name: FolderName, parentId: Id.nullable().optional() });
export type CreateFolderInput = z.infer<typeof CreateFolderInput>;

export const UpdateFolderInput = z
  .strictObject({ name: FolderName.optional(), parentId: Id.nullable().optional() })
  .refine((b) => b.name !== undefined || b.parentId !== undefined, "send name, parentId (null for the root) or both");
export type UpdateFolderInput = z.infer<typeof UpdateFolderInput>;

/** GET /v1/workspace-folders: the folders in `parentId` (the root when absent or `root`), by name. */
export const ListFoldersQuery = PageQuery.extend({ parentId: FolderFilter.optional() });
export type ListFoldersQuery = z.infer<typeof ListFoldersQuery>;

/** A text file (`content`) or an asset-backed one (`assetId`): exactly one of the two. */
export const CreateFileInput = z
  .strictObject({
    folderId: Id.nullable().optional(),
    name: FileName,
    content: z.string().optional(),
    assetId: Id.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.content === undefined) === (b.assetId === undefined))
      ctx.addIssue({ code: "custom", path: b.content === undefined ? ["content"] : ["assetId"], message: "send content (a text file) or assetId (an uploaded file), not both" });
  });
export type CreateFileInput = z.infer<typeof CreateFileInput>;

export const UpdateFileInput = z
  .strictObject({ name: FileName.optional(), folderId: Id.nullable().optional(), assetId: Id.optional() })
  .refine((b) => b.name !== undefined || b.folderId !== undefined || b.assetId !== undefined, "send name, folderId (null for the root), assetId, or several");
export type UpdateFileInput = z.infer<typeof UpdateFileInput>;

export const SaveFileContentInput = z.strictObject({ content: z.string(), expectedRevision: z.number().int().min(1) });
export type SaveFileContentInput = z.infer<typeof SaveFileContentInput>;

/** GET /v1/workspace-files: the files in `folderId` (the root when absent or `root`), by name. */
export const ListFilesQuery = PageQuery.extend({
  folderId: FolderFilter.optional(),
  kind: z.enum(["text", "asset"]).optional(),
  mediaType: z.string().min(1).max(255).optional(),
});
export type ListFilesQuery = z.infer<typeof ListFilesQuery>;

const Timestamp = z.iso.datetime();

export const Folder = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().optional(),
    /** The names from the workspace's root, joined with `/`: `brand/letters`. */
    path: z.string().meta({ description: "The names from the workspace's root, joined with /: brand/letters" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Folder", description: "A workspace folder: templates and files live in folders." });
export type Folder = z.infer<typeof Folder>;
export const FolderPage = pageOf(Folder, "FolderPage");

/** Who saved a file last: a person (name when set, email), an API key (its name), or the system. */
export type FileEditor = { type: "user" | "apiKey" | "system"; id: string; name?: string; email?: string };

export const WorkspaceFile = z
  .object({
    id: z.string(),
    name: z.string(),
    folderId: z.string().optional(),
    /** The names from the workspace's root, joined with `/`: `brand/print.css`. */
    path: z.string().meta({ description: "The names from the workspace's root, joined with /: brand/print.css" }),
    kind: z.enum(["text", "asset"]),
    mediaType: z.string(),
    /** Bytes: the UTF-8 length of a text file, the asset's size for an asset-backed one. */
    size: z.number().int(),
    /** 1 when created; every content save (or a new asset) adds 1. */
    revision: z.number().int().meta({ description: "1 when created; every content save (or a new asset) adds 1" }),
    assetId: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    updatedBy: z.object({ type: z.enum(["user", "apiKey", "system"]), id: z.string() }),
    /** A text file's content: only in the answer for one file. */
    content: z.string().optional().meta({ description: "A text file's content: only in the answer for one file" }),
  })
  .meta({ id: "WorkspaceFile", description: "A workspace file: a text file (a stylesheet...) or one backed by an asset." });
export type WorkspaceFile = z.infer<typeof WorkspaceFile>;
export const WorkspaceFilePage = pageOf(WorkspaceFile, "WorkspaceFilePage");

/**
 * Who uses a file (GET /v1/workspace-files/{id}/usages): a template's draft naming it among its
 * stylesheets, or a text stylesheet naming it in url() or @import. `reference` is the path as
 * written there; `field` says where (composition.stylesheets.0).
 */
export const FileUsage = z.object({
  type: z.enum(["template", "file"]),
  id: z.string(),
  /** The template's name, or the stylesheet's path. */
  name: z.string(),
  as: z.enum(["stylesheet", "url", "import"]),
  reference: z.string(),
  field: z.string().optional(),
});
export type FileUsage = z.infer<typeof FileUsage>;
export const FileUsageList = z.object({ items: z.array(FileUsage) }).meta({ id: "FileUsageList", description: "Who uses a file." });

/** What deleting one file or folder answers. */
export const DeletedOne = z.object({ deleted: z.literal(true), id: z.string() }).meta({ id: "DeletedOne" });

/**
 * Text files by extension: the media type each gets. Stylesheets are what renders use now;
 * partials, helpers and data files are kept for the issues that use them.
 */
export const textMediaTypes: Record<string, string> = {
  css: "text/css",
  hbs: "text/x-handlebars-template",
  html: "text/html",
  js: "text/javascript",
  json: "application/json",
  txt: "text/plain",
};

/** The media type of a text file named `name`, or undefined when its extension is not a text file's. */
export function textMediaType(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? textMediaTypes[name.slice(dot + 1).toLowerCase()] : undefined;
}

export const textExtensionsList = Object.keys(textMediaTypes)
  .map((e) => `.${e}`)
  .join(", ");
