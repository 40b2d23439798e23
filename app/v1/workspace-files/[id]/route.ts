import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";
import { DeletedOne, WorkspaceFile } from "@/lib/workspace-files/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read", summary: "Get a workspace file", description: "A text file with its content.", responses: { 200: WorkspaceFile } }, ({ ctx, params }) => files.getFile(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.UpdateFileInput, summary: "Rename or move a workspace file", responses: { 200: WorkspaceFile } }, ({ ctx, params, body }) =>
  files.updateFile(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", summary: "Delete a workspace file", description: "Refused with 409 while a template or stylesheet uses it.", responses: { 200: DeletedOne } }, ({ ctx, params }) => files.deleteFile(ctx, params.id!));
