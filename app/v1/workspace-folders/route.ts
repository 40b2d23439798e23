import { apiRoute, Reply } from "@/lib/http";
import * as files from "@/lib/workspace-files";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.CreateFolderInput }, async ({ ctx, body }) =>
  new Reply(201, await files.createFolder(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: files.ListFoldersQuery }, ({ ctx, query }) => files.listFolders(ctx, query));
