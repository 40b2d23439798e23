import { apiRoute, MiB } from "@/lib/http";
import { inspectImport, ImportInput, ImportResult } from "@/lib/archives";

export const POST = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:read",
    body: ImportInput,
    bodyLimit: 60 * MiB,
    summary: "Inspect an export before importing it",
    description: "What POST /v1/workspace-folders/import would do with the same body, item by item; nothing is written.",
    responses: { 200: ImportResult },
  },
  async ({ ctx, body }) => inspectImport(ctx, body, "workspace"),
);
