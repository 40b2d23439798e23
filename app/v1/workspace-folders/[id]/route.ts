import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";
import { DeletedOne, Folder } from "@/lib/workspace-files/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get a folder", responses: { 200: Folder } }, ({ ctx, params }) => files.getFolder(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.UpdateFolderInput, summary: "Rename or move a folder", responses: { 200: Folder } }, ({ ctx, params, body }) =>
  files.updateFolder(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", summary: "Delete a folder", description: "Only an empty folder.", responses: { 200: DeletedOne } }, ({ ctx, params }) => files.deleteFolder(ctx, params.id!));
