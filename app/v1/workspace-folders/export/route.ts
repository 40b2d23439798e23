import { apiRoute } from "@/lib/http";
import { exportArchive } from "@/lib/archives";
import { zipResponse } from "@/lib/http/file-response";

// spec: Scopes: exporting needs template:read, plus asset:manage when it holds uploaded files.
export const GET = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:read",
    summary: "Export the workspace",
    description: "Every folder, workspace file and template (its draft) of the workspace, and the uploaded files they use, as a zip of readable files (docs/api.md, Exports and imports). One import or export at a time per workspace.",
    responses: { 200: { contentType: "application/zip", description: "The export" } },
  },
  async ({ ctx }) => zipResponse(await exportArchive(ctx, null)),
);
