import { apiRoute, MiB } from "@/lib/http";
import { inspectImport, ImportInput, ImportResult } from "@/lib/archives";

export const POST = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:read",
    body: ImportInput,
    bodyLimit: 30 * MiB,
    summary: "Inspect a report archive",
    description: "What the archive holds and what POST /v1/reports/import would change with the same body, item by item; nothing is written.",
    responses: { 200: ImportResult },
  },
  async ({ ctx, body }) => inspectImport(ctx, body, "report"),
);
