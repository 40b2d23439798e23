import { apiRoute } from "@/lib/http";
import { exportArchive } from "@/lib/archives";
import { zipResponse } from "@/lib/http/file-response";

export const GET = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:read",
    summary: "Export a folder",
    description: "The folder's subfolders, workspace files and templates (their drafts), and the uploaded files they use, as a zip of readable files whose top is the folder (docs/api.md, Exports and imports).",
    responses: { 200: { contentType: "application/zip", description: "The export" } },
  },
  async ({ ctx, params }) => zipResponse(await exportArchive(ctx, params.id!)),
);
