import { apiRoute, Reply } from "@/lib/http";
import * as files from "@/lib/workspace-files";
import { Folder, FolderPage } from "@/lib/workspace-files/schemas";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.CreateFolderInput, summary: "Create a folder", responses: { 201: Folder } }, async ({ ctx, body }) =>
  new Reply(201, await files.createFolder(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: files.ListFoldersQuery, summary: "List folders", responses: { 200: FolderPage } }, ({ ctx, query }) => files.listFolders(ctx, query));
