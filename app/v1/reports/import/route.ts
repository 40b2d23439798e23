import { apiRoute, MiB } from "@/lib/http";
import { importArchive, ImportInput, ImportResult } from "@/lib/archives";

// spec: Limits > Request bodies: 30 MiB; Imports and exports: a report archive decodes to at most 20 MB.
export const POST = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:write",
    body: ImportInput,
    bodyLimit: 30 * MiB,
    summary: "Import a report archive",
    description: "Imports a report archive (an export's zip of at most 20 MB and 10,000 entries, base64): its templates, files and uploaded files, in one transaction; names taken are skipped, replaced or renamed as onConflict says. Needs asset:manage when it brings uploaded files. One import or export at a time per workspace.",
    responses: { 200: ImportResult },
  },
  async ({ ctx, body }) => importArchive(ctx, body, "report"),
);
