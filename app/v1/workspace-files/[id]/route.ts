import { apiRoute } from "@/lib/http";
import * as files from "@/lib/workspace-files";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "template:read" }, ({ ctx, params }) => files.getFile(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "template:write", body: files.UpdateFileInput }, ({ ctx, params, body }) =>
  files.updateFile(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "template:write" }, ({ ctx, params }) => files.deleteFile(ctx, params.id!));
