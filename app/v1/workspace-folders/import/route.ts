import { apiRoute, MiB } from "@/lib/http";
import { importArchive, ImportInput, ImportResult } from "@/lib/archives";

// spec: Limits > Request bodies: POST /v1/workspace-folders/import takes up to 60 MiB.
export const POST = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:write",
    body: ImportInput,
    bodyLimit: 60 * MiB,
    summary: "Import an export",
    description: "Puts a workspace or folder export (a zip of at most 42 MB, base64) into the workspace or a folder, in one transaction: names taken are skipped, replaced or renamed as onConflict says. Needs asset:manage when it brings uploaded files. One import or export at a time per workspace.",
    responses: { 200: ImportResult },
  },
  async ({ ctx, body }) => importArchive(ctx, body, "workspace"),
);
