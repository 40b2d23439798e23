import { apiRoute, Reply } from "@/lib/http";
import * as files from "@/lib/workspace-files";

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.CreateFileInput }, async ({ ctx, body }) =>
  new Reply(201, await files.createFile(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", query: files.ListFilesQuery }, ({ ctx, query }) => files.listFiles(ctx, query));
