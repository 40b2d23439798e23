import { apiRoute } from "@/lib/http";
import { fileHeaders } from "@/lib/http/file-response";
import * as batches from "@/lib/batches";

// why a session too: the console's batch page offers the combined PDF to download.
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "render:read", summary: "Download a batch as one PDF", description: "Every succeeded PDF item, in order, combined.", responses: { 200: { contentType: "application/pdf", description: "The combined PDF" } } }, async ({ ctx, params }) => {
  const pdf = await batches.combinedPdf(ctx, params.id!);
  return new Response(pdf.body as Uint8Array<ArrayBuffer>, { status: 200, headers: fileHeaders({ contentType: "application/pdf", filename: pdf.filename }) });
});
