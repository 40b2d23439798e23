import { apiRoute, Reply } from "@/lib/http";
import * as files from "@/lib/workspace-files";
import { WorkspaceFile, WorkspaceFilePage } from "@/lib/workspace-files/schemas";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.CreateFileInput, summary: "Create a workspace file", description: "A text file with its content, or a file backed by an asset.", responses: { 201: WorkspaceFile } }, async ({ ctx, body }) =>
  new Reply(201, await files.createFile(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: files.ListFilesQuery, summary: "List workspace files", responses: { 200: WorkspaceFilePage } }, ({ ctx, query }) => files.listFiles(ctx, query));
