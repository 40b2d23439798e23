import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";

export const PUT = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.SaveFileContentInput }, ({ ctx, params, body }) =>
  files.saveFileContent(ctx, params.id!, body),
);
