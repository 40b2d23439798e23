import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";
import { WorkspaceFile } from "@/lib/workspace-files/schemas";

export const PUT = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.SaveFileContentInput, summary: "Save a text file's content", responses: { 200: WorkspaceFile } }, ({ ctx, params, body }) =>
  files.saveFileContent(ctx, params.id!, body),
);
