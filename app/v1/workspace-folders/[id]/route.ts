import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => files.getFolder(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.UpdateFolderInput }, ({ ctx, params, body }) =>
  files.updateFolder(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "template:write" }, ({ ctx, params }) => files.deleteFolder(ctx, params.id!));
